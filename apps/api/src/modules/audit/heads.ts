/**
 * The chain head of each day: per table, the last row (highest place) written that day, with its
 * hash. An operator exports them and keeps them outside the database: whoever can write to the
 * database could rewrite a whole chain so that it verifies again, but not the copies kept
 * elsewhere — `pnpm audit:verify --heads FILE` holds the chain to them.
 */
import type { Db } from '../../db/database.ts';
import { CHAINED_TABLES, type KnownHead } from './chain.ts';

export interface DayHead {
  /** YYYY-MM-DD in UTC+8, the portal's day */
  day: string;
  table: string;
  label: string;
  seq: number;
  hash: string;
}

/** The file `pnpm audit:verify --heads` reads: what the page exports. */
export interface HeadsFile {
  kind: 'esm-audit-heads';
  exportedAt: string;
  heads: DayHead[];
}

/** Day heads of every chain for days in [from, to] (UTC+8), newest day first. */
export async function dayHeads(db: Db, from: string, to: string): Promise<DayHead[]> {
  const out: DayHead[] = [];
  for (const t of CHAINED_TABLES) {
    const rows = await db.$queryRawUnsafe<{ day: string; seq: number; hash: string }[]>(
      `SELECT DISTINCT ON (day) day, chain_seq AS seq, row_hash AS hash
       FROM (SELECT to_char(${t.happened} + interval '8 hours', 'YYYY-MM-DD') AS day, chain_seq, row_hash FROM "${t.table}"
             WHERE chain_seq IS NOT NULL AND ${t.happened} >= ($1::date - interval '8 hours') AND ${t.happened} < ($2::date + interval '16 hours')) d
       ORDER BY day, chain_seq DESC`,
      from,
      to,
    );
    for (const r of rows) out.push({ day: r.day, table: t.table, label: t.label, seq: r.seq, hash: r.hash });
  }
  return out.sort(
    (a, b) =>
      b.day.localeCompare(a.day) ||
      CHAINED_TABLES.findIndex((t) => t.table === a.table) - CHAINED_TABLES.findIndex((t) => t.table === b.table),
  );
}

/** Reads an exported heads file; throws a message naming what is wrong with it. */
export function parseHeadsFile(text: string, name: string): KnownHead[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not JSON: give the file exported from 审计校验`);
  }
  const f = parsed as Partial<HeadsFile>;
  if (f?.kind !== 'esm-audit-heads' || !Array.isArray(f.heads))
    throw new Error(`${name} is not a heads file exported from 审计校验 (kind esm-audit-heads)`);
  return f.heads.map((h, i) => {
    if (
      typeof h?.table !== 'string' ||
      !Number.isInteger(h.seq) ||
      typeof h.hash !== 'string' ||
      !/^[0-9a-f]{64}$/.test(h.hash)
    ) {
      throw new Error(`${name}: head ${i + 1} needs table, seq (integer) and hash (64 hex digits)`);
    }
    return { table: h.table, seq: h.seq, hash: h.hash, source: `${name}（${h.day}）` };
  });
}
