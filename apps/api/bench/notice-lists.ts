/**
 * The change-notice pages (issue 9) on 10,000 notices × 2,000 suppliers (lib/notice-data.ts), at
 * BENCH_CLIENTS concurrent clients for BENCH_SECONDS each, three ways per case like archive-lists:
 *  - api: POST to the real server (`pnpm start`'s way of running it, lib/run-style.ts);
 *  - raw page query: the statements of the page through `pg` from this process — built by the
 *    very functions the service builds them with (modules/notices/query.ts `noticePageSql`,
 *    `recipientPageSql`, `supplierNoticePageSql`) and wrapped as lib/list.ts `pageAndCount` wraps
 *    them (page and capped count in one statement);
 *  - raw + session statements: the same plus what every signed-in call runs.
 * Before timing a case one api answer and one raw answer are compared (same ids, same total).
 * The issue's yardstick: the api at ≥ 50 % of the raw page query.
 */
import { CONNECTION_OPTIONS } from '../src/db/database.ts';
import pg from 'pg';
import { Pool } from 'undici';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { Prisma } from '../src/generated/prisma/client.ts';
import { noticePageSql, recipientPageSql, supplierNoticePageSql, type PageStatement } from '../src/modules/notices/query.ts';
import { apiPost, login, sidOf } from './lib/api-client.ts';
import { withSessionStatements } from './lib/archive-sql.ts';
import { cpuMeter } from './lib/cpu.ts';
import { closedLoop, type LoadResult } from './lib/load.ts';
import { createNoticeData } from './lib/notice-data.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { startServer, tempDir } from './lib/server.ts';
import { fmt } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API_POOL = 10;
const STAFF = ['demo3', 'demo7', 'demo8', 'demo9'];

interface Page {
  ids: number[];
  total: number;
  totalCapped: boolean;
}

interface Case {
  name: string;
  who: 'staff' | 'supplier';
  path: string;
  body: Record<string, unknown>;
  raw(sql: pg.Pool): Promise<Page>;
}

/** A date parameter as db/rows.ts sends it (UTC, no zone). */
const param = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : v);

/** lib/list.ts pageAndCount around a page statement, as pg text and values. */
function pageAndCount(s: PageStatement): pg.QueryConfig {
  const q = Prisma.sql`WITH counted AS (
  SELECT count(*)::int AS __total FROM (SELECT 1 ${s.fromWhere} LIMIT ${LIST_WINDOW_MAX + 1}) AS capped
)
SELECT counted.__total, p.* FROM counted
LEFT JOIN (SELECT page_rows.*, (row_number() OVER ())::int AS __ord FROM (${s.page}) AS page_rows) AS p ON true
ORDER BY p.__ord`;
  return { text: q.text, values: q.values.map(param) };
}

async function run1(sql: pg.Pool, s: PageStatement): Promise<Page> {
  const { rows } = await sql.query(pageAndCount(s));
  const n = Number(rows[0]?.__total ?? 0);
  return { ids: rows[0]?.__ord == null ? [] : rows.map((r) => r.id as number), total: Math.min(n, LIST_WINDOW_MAX), totalCapped: n > LIST_WINDOW_MAX };
}

const noticeCase = (name: string, body: Record<string, unknown>): Case => {
  const q = { page: 1, results: 10, ...body };
  return { name, who: 'staff', path: 'haier/tableChangeLog/findTableChangeLogListForHaier', body: q, raw: (sql) => run1(sql, noticePageSql(q as never, new Date())) };
};

const matrixCase = (name: string, id: number, body: Record<string, unknown>): Case => {
  const q = { page: 1, results: 10, ...body };
  return {
    name,
    who: 'staff',
    path: 'haier/tableChangeLog/getSuppliersById',
    body: { id, ...q },
    async raw(sql) {
      const page = await run1(sql, recipientPageSql(id, q as never, new Date()));
      // the route's notice check, made only for an empty page (never here)
      if (page.total === 0 && !(await sql.query({ text: 'SELECT id FROM change_notice WHERE id = $1', values: [id] })).rowCount) throw new Error('no such notice');
      return page;
    },
  };
};

const inboxCase = (name: string, supplierCode: string): Case => ({
  name,
  who: 'supplier',
  path: 'supplier/standardlog/getSupplierNoticeList',
  body: { page: 1, results: 10 },
  raw: (sql) => run1(sql, supplierNoticePageSql(supplierCode, { page: 1, results: 10 }, new Date())),
});

async function apiPage(http: Pool, c: Case, cookie: string): Promise<Page> {
  const res = await apiPost<{ id: number }[]>(http, c.path, c.body, cookie);
  if (res.status !== 200 || res.json.success !== true || !Array.isArray(res.json.data)) throw new Error(`${c.path}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
  return { ids: res.json.data.map((r) => r.id), total: res.json.total ?? -1, totalCapped: res.json.totalCapped ?? false };
}

function sameAnswer(c: Case, api: Page, raw: Page) {
  if (JSON.stringify(api) !== JSON.stringify(raw)) throw new Error(`${c.name}: raw SQL answers ${JSON.stringify(raw)}, the api ${JSON.stringify(api)}`);
  if (api.ids.length === 0) throw new Error(`${c.name}: empty page, nothing to measure`);
}

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const data = await createNoticeData();
  progress(`notice data set in ${data.seconds.toFixed(1)} s: ${Object.entries(data.counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
  const sql = new pg.Pool({ connectionString: data.url, max: API_POOL, options: CONNECTION_OPTIONS }); // as the api's pool
  const one = async (text: string, values: unknown[] = []) => (await sql.query(text, values)).rows[0];
  const overdue = Number((await one(`SELECT count(*) AS n FROM notice_recipient WHERE notice_id = $1 AND status <> 'CONFIRMED'`, [data.wideNoticeId])).n);
  const s001 = Number((await one(`SELECT count(*) AS n FROM notice_recipient WHERE supplier_code = 'S001'`)).n);
  const all: Case[] = [
    noticeCase(`notice list, page 1 (all ${data.counts.change_notice} notices, newest first)`, {}),
    noticeCase('notice list, status PUBLISHED', { status: 'PUBLISHED' }),
    noticeCase('notice list, overdue only', { overdueOnly: '1' }),
    noticeCase('notice list, page 1000 (rows 9,991–10,000)', { page: 1000 }),
    matrixCase(`recipients matrix of a notice to all ${data.counts.supplier} suppliers, page 1 (unread first)`, data.wideNoticeId, {}),
    matrixCase(`the same matrix, state OVERDUE (${overdue} rows)`, data.wideNoticeId, { state: 'OVERDUE' }),
    matrixCase('the same matrix, page 200 (rows 1,991–2,000)', data.wideNoticeId, { page: 200 }),
    inboxCase(`supplier inbox (S001, ${s001} notices), page 1`, 'S001'),
  ];
  const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : undefined;
  const list = all.filter((c) => !only || only.test(c.name));
  const style = serverStyle();
  progress(`server run with: ${describeStyle(style)}`);
  const server = await startServer({ dataDir: tempDir('notices').dir, databaseUrl: data.url, nodeArgs: style.flags, env: style.env });
  const http = new Pool(server.base, { connections: clients });
  const db = { url: data.url, name: data.name };
  const rows: Row[] = [];
  try {
    const cookies = { staff: [] as string[], supplier: [] as string[] };
    for (let i = 0; i < clients; i++) {
      cookies.staff.push(await login(http, STAFF[i % STAFF.length]!));
      cookies.supplier.push(await login(http, 'demo2'));
    }
    const loop = { concurrency: clients, durationMs: seconds * 1000, warmupOps: 4 * clients };
    for (const c of list) {
      const cookieOf = (client: number) => cookies[c.who][client]!;
      sameAnswer(c, await apiPage(http, c, cookieOf(0)), await c.raw(sql));
      progress(`${c.name}: api, ${seconds} s`);
      const api = await closedLoop(async (client) => void (await apiPage(http, c, cookieOf(client))), { ...loop, meter: cpuMeter(server.proc.pid!, db) });
      progress(`${c.name}: raw page query, ${seconds} s`);
      const raw = await closedLoop(async () => void (await c.raw(sql)), { ...loop, meter: cpuMeter('self', db) });
      progress(`${c.name}: raw with the session statements, ${seconds} s`);
      const withSession = await closedLoop(async (client) => void (await withSessionStatements(sql, sidOf(cookieOf(client)), () => c.raw(sql))), { ...loop, meter: cpuMeter('self', db) });
      const row = (via: string, r: LoadResult, ratio: string): Row => ({
        case: c.name,
        via,
        'req/s': fmt(r.perSecond),
        'p50 ms': fmt(r.p50Ms, 1),
        'p99 ms': fmt(r.p99Ms, 1),
        'api ÷ this': ratio,
        'app CPU ms/req': r.appCpuMsPerOp === undefined ? '—' : fmt(r.appCpuMsPerOp, 2),
        'db CPU ms/req': r.dbCpuMsPerOp === undefined ? '—' : fmt(r.dbCpuMsPerOp, 2),
        errors: r.errors,
      });
      const pct = (r: LoadResult) => `${fmt((api.perSecond / r.perSecond) * 100)} %`;
      for (const [via, r] of [['api', api], ['raw', raw], ['raw+session', withSession]] as const) if (r.errors) progress(`${c.name} (${via}): ${r.errors} errors, first: ${r.firstError}`);
      progress(`${c.name}: api ${api.perSecond.toFixed(0)}/s, raw ${raw.perSecond.toFixed(0)}/s (${pct(raw)}), raw+session ${withSession.perSecond.toFixed(0)}/s`);
      rows.push(row('api', api, '—'), row('raw page query', raw, pct(raw)), row('raw + session statements', withSession, pct(withSession)));
    }
  } finally {
    await sql.end();
    await http.close();
    await server.stop();
  }
  return rows;
}
