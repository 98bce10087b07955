/**
 * The change-notice pages on 10,000 notices × 2,000 suppliers (lib/notice-data.ts), at
 * BENCH_CLIENTS concurrent clients for BENCH_SECONDS each, three ways per case like archive-lists:
 *  - api: POST to the real server (`pnpm start`'s way of running it, lib/run-style.ts);
 *  - raw page query: the statements of the page through `pg` from this process — built by the
 *    very functions the service builds them with (modules/notices/query.ts `noticePageSql`,
 *    `recipientPageSql`, `supplierNoticePageSql`) and wrapped as lib/list.ts `pageAndCount` wraps
 *    them (page and capped count in one statement);
 *  - raw + session statements: the same plus what every signed-in call runs.
 * Before timing a case one api answer and one raw answer are compared (same ids, same total).
 * The yardstick: the api at ≥ 50 % of the raw page query.
 */
import { CONNECTION_OPTIONS } from '../src/db/database.ts';
import pg from 'pg';
import { Pool } from 'undici';
import { noticePageSql, recipientPageSql, supplierNoticePageSql } from '../src/modules/notices/query.ts';
import { login } from './lib/api-client.ts';
import { pageOf, rawPage, runListCases, selectedCases, type ListCase } from './lib/list-bench.ts';
import { createNoticeData } from './lib/notice-data.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { startServer, tempDir } from './lib/server.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API_POOL = 10;
const STAFF = ['demo3', 'demo7', 'demo8', 'demo9'];

const noticeCase = (name: string, body: Record<string, unknown>): ListCase => {
  const q = { page: 1, results: 10, ...body };
  return {
    name,
    who: 'staff',
    path: 'haier/tableChangeLog/findTableChangeLogListForHaier',
    body: q,
    raw: async (sql) => pageOf(await rawPage(sql, noticePageSql(q as never, new Date()))),
  };
};

const matrixCase = (name: string, id: number, body: Record<string, unknown>): ListCase => {
  const q = { page: 1, results: 10, ...body };
  return {
    name,
    who: 'staff',
    path: 'haier/tableChangeLog/getSuppliersById',
    body: { id, ...q },
    async raw(sql) {
      const page = pageOf(await rawPage(sql, recipientPageSql(id, q as never, new Date())));
      // the route's notice check, made only for an empty page (never here)
      if (
        page.total === 0 &&
        !(await sql.query({ text: 'SELECT id FROM change_notice WHERE id = $1', values: [id] })).rowCount
      )
        throw new Error('no such notice');
      return page;
    },
  };
};

const inboxCase = (name: string, supplierCode: string): ListCase => ({
  name,
  who: 'supplier',
  path: 'supplier/standardlog/getSupplierNoticeList',
  body: { page: 1, results: 10 },
  raw: async (sql) =>
    pageOf(await rawPage(sql, supplierNoticePageSql(supplierCode, { page: 1, results: 10 }, new Date()))),
});

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const data = await createNoticeData();
  progress(
    `notice data set in ${data.seconds.toFixed(1)} s: ${Object.entries(data.counts)
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')}`,
  );
  const sql = new pg.Pool({ connectionString: data.url, max: API_POOL, options: CONNECTION_OPTIONS }); // as the api's pool
  const one = async (text: string, values: unknown[] = []) => (await sql.query(text, values)).rows[0];
  const overdue = Number(
    (
      await one(`SELECT count(*) AS n FROM notice_recipient WHERE notice_id = $1 AND status <> 'CONFIRMED'`, [
        data.wideNoticeId,
      ])
    ).n,
  );
  const s001 = Number((await one(`SELECT count(*) AS n FROM notice_recipient WHERE supplier_code = 'S001'`)).n);
  const all: ListCase[] = [
    noticeCase(`notice list, page 1 (all ${data.counts.change_notice} notices, newest first)`, {}),
    noticeCase('notice list, status PUBLISHED', { status: 'PUBLISHED' }),
    noticeCase('notice list, overdue only', { overdueOnly: '1' }),
    noticeCase('notice list, page 1000 (rows 9,991–10,000)', { page: 1000 }),
    matrixCase(
      `recipients matrix of a notice to all ${data.counts.supplier} suppliers, page 1 (unread first)`,
      data.wideNoticeId,
      {},
    ),
    matrixCase(`the same matrix, state OVERDUE (${overdue} rows)`, data.wideNoticeId, { state: 'OVERDUE' }),
    matrixCase('the same matrix, page 200 (rows 1,991–2,000)', data.wideNoticeId, { page: 200 }),
    inboxCase(`supplier inbox (S001, ${s001} notices), page 1`, 'S001'),
  ];
  const list = selectedCases(all);
  const style = serverStyle();
  progress(`server run with: ${describeStyle(style)}`);
  const server = await startServer({
    dataDir: tempDir('notices').dir,
    databaseUrl: data.url,
    nodeArgs: style.flags,
    env: style.env,
  });
  const http = new Pool(server.base, { connections: clients });
  try {
    const cookies = { staff: [] as string[], supplier: [] as string[] };
    for (let i = 0; i < clients; i++) {
      cookies.staff.push(await login(http, STAFF[i % STAFF.length]!));
      cookies.supplier.push(await login(http, 'demo2'));
    }
    return await runListCases({
      cases: list,
      http,
      serverPid: server.proc.pid!,
      sql,
      db: { url: data.url, name: data.name },
      cookies,
      seconds,
      clients,
    });
  } finally {
    await sql.end();
    await http.close();
    await server.stop();
  }
}
