/**
 * The tamper-evident chain over the rows that record acts (the audit_chain_link trigger in the
 * migration `audit_chain` writes it): each row stores its place in its table's chain, the
 * previous row's hash and sha256(previous hash || its canonical content). This file recomputes
 * every chain and names what does not add up:
 *  - a row whose content no longer gives its hash: changed;
 *  - a place missing between two rows: deleted (the rows after it still chain to each other);
 *  - a row whose previous hash is not the hash of the row before it, or a row of a chained kind
 *    with no place at all: inserted outside the chain (the trigger bypassed);
 *  - a head recorded earlier (a verification, or a day's head kept elsewhere) that the chain no
 *    longer holds: rows at or after it deleted or rewritten.
 * The hashes are computed here, in Node, from the content Postgres serialises (jsonb text, the
 * same serialisation the trigger hashed): a changed trigger function cannot vouch for itself.
 * Someone with write access can still rewrite a whole chain consistently; a head kept outside
 * the database (the day heads exported from 审计校验) is what exposes that.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.ts';

/** A chained table: its name, what it records (shown to operators) and when its rows happened. */
export interface ChainedTable {
  table: string;
  label: string;
  happened: string;
  /** rows that are not chained by design (drafts): SQL condition of those that must be */
  chained?: string;
}

/**
 * One chain per table rather than one for all: an act waits only for acts of its own kind (a
 * download never queues behind a sign-in), a table verifies on its own, and a problem is named
 * by the table and row it is in. The order of acts across tables is still in each row's time.
 */
export const CHAINED_TABLES: readonly ChainedTable[] = [
  { table: 'access_log', label: '访问日志（查看、打印、下载、确认、保密协议、拒绝）', happened: 'created_at' },
  { table: 'access_delivery', label: '交付结果', happened: 'finished_at' },
  { table: 'keepsecret_acceptance', label: '保密协议接受', happened: 'accepted_at' },
  { table: 'archive_event', label: '档案作废与恢复', happened: 'created_at' },
  { table: 'notice_event', label: '变更通知操作记录', happened: 'created_at' },
  { table: 'empower_audit', label: '图纸授权申请操作记录', happened: 'created_at', chained: `to_status <> 'DRAFT'` },
  {
    table: 'document_issue_message',
    label: '图纸问题操作记录',
    happened: 'created_at',
    chained: `to_status <> 'DRAFT'`,
  },
  { table: 'countersign_event', label: '会签操作记录', happened: 'created_at' },
  { table: 'bom_event', label: '二三级BOM变更记录', happened: 'created_at' },
  { table: 'permission_change_log', label: '按钮与列权限变更', happened: 'created_at' },
  { table: 'phone_view_log', label: '手机号查看日志', happened: 'created_at' },
  { table: 'sign_in_log', label: '登录日志', happened: 'created_at' },
  {
    table: 'notification_delivery_event',
    label: '通知发送记录（排队、每次尝试、发送成功或失败、重新发送）',
    happened: 'created_at',
  },
];

export const GENESIS_HASH = '0'.repeat(64);

export type ProblemKind = 'changed' | 'deleted' | 'inserted' | 'head';

export interface ChainProblem {
  table: string;
  kind: ProblemKind;
  /** the row named (for a deletion: the first row after the gap) */
  id: number | null;
  seq: number | null;
  message: string;
}

/** The last row of a chain: how many rows it has and the hash that all of them lead to. */
export interface ChainHead {
  table: string;
  seq: number;
  hash: string;
}

export interface ChainReport {
  ok: boolean;
  rows: number;
  heads: ChainHead[];
  problems: ChainProblem[];
}

/** A head to hold the chain to: the row at `seq` must still carry `hash`. */
export type KnownHead = ChainHead & { source: string };

const BATCH = 5000;
/** per table: the first problems are what an operator needs; the rest would only repeat them */
const MAX_PROBLEMS = 20;

export const rowHash = (prevHash: string, content: string): string =>
  createHash('sha256')
    .update(prevHash + content, 'utf8')
    .digest('hex');

interface Row {
  id: number;
  seq: number;
  prev: string | null;
  hash: string | null;
  content: string;
}

export const ident = (t: string) => `"${t.replace(/"/g, '""')}"`;

/** A row's canonical content as the trigger hashed it, for a row aliased `x` (the evidence package keeps it verbatim). */
export const CONTENT_SQL = `jsonb_strip_nulls(to_jsonb(x) - 'prev_hash' - 'row_hash')::text`;

/** Recomputes one table's chain; `known`: heads recorded earlier that it must still hold. */
export async function verifyTable(
  db: Db,
  t: ChainedTable,
  known: readonly KnownHead[] = [],
): Promise<{ rows: number; head: ChainHead; problems: ChainProblem[] }> {
  const problems: ChainProblem[] = [];
  const add = (p: Omit<ChainProblem, 'table'>) => {
    if (problems.length < MAX_PROBLEMS) problems.push({ table: t.table, ...p });
  };
  const mustHold = new Map<number, KnownHead>();
  for (const k of known) if (k.table === t.table) mustHold.set(k.seq, k);
  let expected = 1;
  let prevHash = GENESIS_HASH;
  let rows = 0;
  let last = 0;
  for (;;) {
    const batch = await db.$queryRawUnsafe<Row[]>(
      `SELECT id, chain_seq AS seq, prev_hash AS prev, row_hash AS hash,
              ${CONTENT_SQL} AS content
       FROM ${ident(t.table)} x WHERE chain_seq > $1 ORDER BY chain_seq LIMIT ${BATCH}`,
      last,
    );
    for (const r of batch) {
      rows++;
      if (r.seq > expected) {
        const gap = r.seq - expected;
        add({
          kind: 'deleted',
          id: r.id,
          seq: r.seq,
          message: `${t.table}：链位置 ${expected}${gap > 1 ? `–${r.seq - 1}` : ''} 的 ${gap} 行已被删除（其后一行 id ${r.id}）`,
        });
      } else if (r.prev !== prevHash) {
        add({
          kind: 'inserted',
          id: r.id,
          seq: r.seq,
          message: `${t.table}：id ${r.id}（链位置 ${r.seq}）不接在前一行之后：被插入到链中或前一行被替换`,
        });
      }
      if (r.hash !== rowHash(r.prev ?? '', r.content)) {
        add({
          kind: 'changed',
          id: r.id,
          seq: r.seq,
          message: `${t.table}：id ${r.id}（链位置 ${r.seq}）的内容已被修改`,
        });
      }
      const k = mustHold.get(r.seq);
      if (k && k.hash !== r.hash)
        add({
          kind: 'head',
          id: r.id,
          seq: r.seq,
          message: `${t.table}：链位置 ${r.seq} 与${k.source}记录的链头不符：该位置及以前的行被改写`,
        });
      mustHold.delete(r.seq);
      expected = r.seq + 1;
      prevHash = r.hash ?? '';
      last = r.seq;
    }
    if (batch.length < BATCH) break;
  }
  for (const k of mustHold.values()) {
    add({
      kind: 'head',
      id: null,
      seq: k.seq,
      message: `${t.table}：${k.source}记录的链头（链位置 ${k.seq}）已不在链中：其后的行被删除`,
    });
  }
  const unchained = await db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT id FROM ${ident(t.table)} WHERE chain_seq IS NULL${t.chained ? ` AND ${t.chained}` : ''} ORDER BY id LIMIT ${MAX_PROBLEMS}`,
  );
  for (const r of unchained)
    add({ kind: 'inserted', id: r.id, seq: null, message: `${t.table}：id ${r.id} 不在链中：绕过链写入` });
  return { rows, head: { table: t.table, seq: last, hash: last ? prevHash : GENESIS_HASH }, problems };
}

/**
 * A notification_delivery row changes as its delivery moves, so the chain holds its facts as
 * notification_delivery_event rows instead (the trigger in the migration `delivery_chain` writes
 * one per change) and the delivery row must stay the latest of them: a row whose state, tries,
 * answer or address differ from its last event was changed past the trigger; a row with no event
 * at all was inserted past it.
 */
export async function verifyDeliveries(db: Db): Promise<ChainProblem[]> {
  const rows = await db.$queryRawUnsafe<{ id: number; last: number | null }[]>(
    `SELECT d.id, e.id AS last FROM notification_delivery d
       LEFT JOIN LATERAL (SELECT * FROM notification_delivery_event e WHERE e.delivery_id = d.id ORDER BY e.id DESC LIMIT 1) e ON true
     WHERE e.id IS NULL OR (d.state, d.tries, d.last_answer, d.address, d.channel) IS DISTINCT FROM (e.state, e.tries, e.answer, e.address, e.channel)
     ORDER BY d.id LIMIT ${MAX_PROBLEMS}`,
  );
  return rows.map((r) =>
    r.last === null
      ? {
          table: 'notification_delivery',
          kind: 'inserted',
          id: r.id,
          seq: null,
          message: `notification_delivery：id ${r.id} 没有链中的发送记录：绕过链写入`,
        }
      : {
          table: 'notification_delivery',
          kind: 'changed',
          id: r.id,
          seq: null,
          message: `notification_delivery：id ${r.id} 的状态与链中最后一条发送记录（id ${r.last}）不符：已被修改`,
        },
  );
}

/** Recomputes every chain. */
export async function verifyChains(db: Db, known: readonly KnownHead[] = []): Promise<ChainReport> {
  const heads: ChainHead[] = [];
  const problems: ChainProblem[] = [];
  let rows = 0;
  for (const t of CHAINED_TABLES) {
    const r = await verifyTable(db, t, known);
    rows += r.rows;
    heads.push(r.head);
    problems.push(...r.problems);
  }
  problems.push(...(await verifyDeliveries(db)));
  return { ok: problems.length === 0, rows, heads, problems };
}
