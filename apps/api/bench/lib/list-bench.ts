/**
 * The list benchmarks' shared machinery (archive-lists, notice-lists, domain-lists): each case is one api list
 * call and its raw page query — the statements the service builds (a lib/list.ts PageStatement
 * from the module's own builder), wrapped as lib/list.ts pageAndCount wraps them and sent through
 * `pg` from this process — timed three ways at BENCH_CLIENTS clients for BENCH_SECONDS each: the
 * api, the raw page query, and the raw page query plus what every signed-in call runs (the session
 * statements). Before timing, one api answer and one raw answer are compared (same ids, same total).
 * BENCH_FLOOR=1 adds a fourth way, the framework floor: a bare Fastify server (floor-server.ts)
 * replaying over HTTP the statements of the raw-with-session loop — what the portal's code adds
 * on top of the HTTP hop and the framework is then api ÷ floor.
 */
import type pg from 'pg';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { Prisma } from '../../src/generated/prisma/client.ts';
import { familyName } from '../../src/db/rows.ts';
import { pageAndCountSql, type PageStatement } from '../../src/lib/list.ts';
import { Pool } from 'undici';
import { apiPost, sidOf } from './api-client.ts';
import { serverStyle } from './run-style.ts';
import { startServer, tempDir, type RunningServer } from './server.ts';
import { withSessionStatements } from './session-sql.ts';
import { cpuMeter } from './cpu.ts';
import { closedLoop, type LoadResult } from './load.ts';
import { fmt } from './stats.ts';
import { progress, type Row } from './types.ts';

/** What a page answered, as compared between the api and the raw query. */
export interface Page {
  ids: (number | string)[];
  total: number;
  totalCapped: boolean;
}

export interface ListCase {
  name: string;
  /** Whose sessions call it (a key of the cookies given to runListCases). */
  who: string;
  path: string;
  body: Record<string, unknown>;
  /** The page through `pg`: the same statements the service sends. */
  raw(sql: pg.Pool): Promise<Page>;
  /** Also timed with one client alone (latency without queueing: a search goal's p95). */
  alone?: boolean;
}

/** A date parameter as db/rows.ts sends it (UTC, no zone). */
const param = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** A Prisma.sql statement as pg text and values, parameters as db/rows.ts sends them. */
export const pgQuery = (q: Prisma.Sql): pg.QueryConfig => ({ text: q.text, values: q.values.map(param) });

/** lib/list.ts pageAndCount around a page statement, as pg text and values; prepared as the api prepares it. */
export function pageAndCountQuery(s: PageStatement): pg.QueryConfig {
  const q = pgQuery(pageAndCountSql(s.page, s.fromWhere, LIST_WINDOW_MAX));
  return s.prepare ? { ...q, name: familyName(s.prepare, q.text) } : q;
}

/** One page statement with its capped count, as the api runs it; `rows` for a caller that reads further. */
export async function rawPage(sql: pg.Pool, s: PageStatement): Promise<Page & { rows: Record<string, unknown>[] }> {
  const { rows } = await sql.query(pageAndCountQuery(s));
  const n = Number(rows[0]?.__total ?? 0);
  const page = rows[0]?.__ord == null ? [] : rows;
  return {
    ids: page.map((r) => r.id as number),
    total: Math.min(n, LIST_WINDOW_MAX),
    totalCapped: n > LIST_WINDOW_MAX,
    rows: page,
  };
}

/** Only what the answers are compared on. */
export const pageOf = ({ ids, total, totalCapped }: Page): Page => ({ ids, total, totalCapped });

async function apiPage(http: Pool, c: ListCase, cookie: string): Promise<Page> {
  const res = await apiPost<{ id: number }[]>(http, c.path, c.body, cookie);
  if (res.status !== 200 || res.json.success !== true || !Array.isArray(res.json.data))
    throw new Error(`${c.path}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
  return {
    ids: res.json.data.map((r) => r.id),
    total: res.json.total ?? -1,
    totalCapped: res.json.totalCapped ?? false,
  };
}

function sameAnswer(c: ListCase, api: Page, raw: Page) {
  if (JSON.stringify(api) !== JSON.stringify(pageOf(raw)))
    throw new Error(`${c.name}: raw SQL answers ${JSON.stringify(pageOf(raw))}, the api ${JSON.stringify(api)}`);
  if (api.ids.length === 0) throw new Error(`${c.name}: empty page, nothing to measure`);
}

export interface ListRun {
  cases: ListCase[];
  http: Pool;
  /** The server's pid (its CPU is metered for the api rows). */
  serverPid: number;
  /** A `pg` pool on the benchmark's database, as large as the api's. */
  sql: pg.Pool;
  db: { url: string; name: string };
  /** Session cookies per `who`, one per client. */
  cookies: Record<string, string[]>;
  seconds: number;
  clients: number;
}

/** BENCH_CASES=<regex> keeps only the matching cases. */
export const selectedCases = (all: ListCase[]) => {
  const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : undefined;
  return all.filter((c) => !only || only.test(c.name));
};

/** A pool that also keeps each statement sent through it, as a config the floor server can replay. */
function recording(sql: pg.Pool, sent: pg.QueryConfig[]): pg.Pool {
  const query = (config: string | pg.QueryConfig, values?: unknown[]) => {
    const c = typeof config === 'string' ? { text: config, values } : config;
    sent.push(c);
    return sql.query(c);
  };
  return { query } as unknown as pg.Pool;
}

interface Floor {
  server: RunningServer;
  http: Pool;
}

/** The floor server (floor-server.ts) on the benchmark's database, run as the api is run. */
async function startFloor(r: ListRun): Promise<Floor> {
  const style = serverStyle();
  const server = await startServer({
    dataDir: tempDir('floor').dir,
    databaseUrl: r.db.url,
    entry: ['--import', 'tsx', 'bench/lib/floor-server.ts'],
    nodeArgs: style.flags,
    env: { ...style.env, FLOOR_POOL: String(r.sql.options.max ?? 10) },
  });
  return { server, http: new Pool(server.base, { connections: r.clients }) };
}

async function floorCall(f: Floor, c: ListCase, cookie: string): Promise<void> {
  const res = await apiPost(f.http, c.path, c.body, cookie);
  if (res.status !== 200 || res.json.success !== true) throw new Error(`floor ${c.path}: ${res.status}`);
}

/** Times every case three ways (four with BENCH_FLOOR=1); a table row for each. */
export async function runListCases(r: ListRun): Promise<Row[]> {
  const floor = process.env.BENCH_FLOOR === '1' ? await startFloor(r) : undefined;
  try {
    return await timeCases(r, floor);
  } finally {
    await floor?.http.close();
    await floor?.server.stop();
  }
}

async function timeCases(r: ListRun, floor: Floor | undefined): Promise<Row[]> {
  const rows: Row[] = [];
  const loop = { concurrency: r.clients, durationMs: r.seconds * 1000, warmupOps: 4 * r.clients };
  for (const c of r.cases) {
    const cookieOf = (client: number) => r.cookies[c.who]![client]!;
    const sent: pg.QueryConfig[] = [];
    sameAnswer(c, await apiPage(r.http, c, cookieOf(0)), await c.raw(recording(r.sql, sent)));
    progress(`${c.name}: api, ${r.seconds} s`);
    const api = await closedLoop(async (client) => void (await apiPage(r.http, c, cookieOf(client))), {
      ...loop,
      meter: cpuMeter(r.serverPid, r.db),
    });
    progress(`${c.name}: raw page query, ${r.seconds} s`);
    const raw = await closedLoop(async () => void (await c.raw(r.sql)), { ...loop, meter: cpuMeter('self', r.db) });
    progress(`${c.name}: raw with the session statements, ${r.seconds} s`);
    const withSession = await closedLoop(
      async (client) => void (await withSessionStatements(r.sql, sidOf(cookieOf(client)), () => c.raw(r.sql))),
      { ...loop, meter: cpuMeter('self', r.db) },
    );
    let atFloor: LoadResult | undefined;
    if (floor) {
      const set = await fetch(`${floor.server.base}/floor/statements`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      if (!set.ok)
        throw new Error(`floor server refused the statements of ${c.name}: ${set.status} ${await set.text()}`);
      progress(`${c.name}: bare Fastify + the same statements, ${r.seconds} s`);
      atFloor = await closedLoop(async (client) => floorCall(floor, c, cookieOf(client)), {
        ...loop,
        meter: cpuMeter(floor.server.proc.pid!, r.db),
      });
    }
    const alone = c.alone
      ? (progress(`${c.name}: api, one client, ${r.seconds} s`),
        await closedLoop(async () => void (await apiPage(r.http, c, cookieOf(0))), {
          ...loop,
          concurrency: 1,
          warmupOps: 16,
        }))
      : undefined;
    const row = (via: string, x: LoadResult, ratio: string): Row => ({
      case: c.name,
      via,
      'req/s': fmt(x.perSecond),
      'p50 ms': fmt(x.p50Ms, 1),
      'p95 ms': fmt(x.p95Ms, 1),
      'p99 ms': fmt(x.p99Ms, 1),
      'api ÷ this': ratio,
      'app CPU ms/req': x.appCpuMsPerOp === undefined ? '—' : fmt(x.appCpuMsPerOp, 2),
      'db CPU ms/req': x.dbCpuMsPerOp === undefined ? '—' : fmt(x.dbCpuMsPerOp, 2),
      errors: x.errors,
    });
    const pct = (x: LoadResult) => `${fmt((api.perSecond / x.perSecond) * 100)} %`;
    for (const [via, x] of [
      ['api', api],
      ['raw', raw],
      ['raw+session', withSession],
    ] as const)
      if (x.errors) progress(`${c.name} (${via}): ${x.errors} errors, first: ${x.firstError}`);
    progress(
      `${c.name}: api ${api.perSecond.toFixed(0)}/s, raw ${raw.perSecond.toFixed(0)}/s (${pct(raw)}), raw+session ${withSession.perSecond.toFixed(0)}/s`,
    );
    rows.push(
      row('api', api, '—'),
      row('raw page query', raw, pct(raw)),
      row('raw + session statements', withSession, pct(withSession)),
    );
    if (atFloor) {
      if (atFloor.errors) progress(`${c.name} (floor): ${atFloor.errors} errors, first: ${atFloor.firstError}`);
      progress(
        `${c.name}: bare Fastify ${atFloor.perSecond.toFixed(0)}/s (api ${pct(atFloor)} of it; it is ${fmt((atFloor.perSecond / raw.perSecond) * 100)} % of raw)`,
      );
      rows.push(row('bare Fastify + the same statements', atFloor, pct(atFloor)));
    }
    if (alone) {
      progress(`${c.name}: one client: p50 ${alone.p50Ms.toFixed(1)} ms, p95 ${alone.p95Ms.toFixed(1)} ms`);
      rows.push(row('api, one client alone', alone, '—'));
    }
  }
  return rows;
}
