/**
 * The archive and log pages on the large data set (bench/generate.ts: 1M files, 5M log rows), at
 * BENCH_CLIENTS concurrent clients for BENCH_SECONDS each, three ways per case:
 *  - api: POST to the real server (127.0.0.1, keep-alive, one session per client);
 *  - raw page query: the same page statements through `pg` from this process (page and capped
 *    count side by side, as the api runs them; for the supplier also its scope and
 *    confirmations) — the yardstick: the api should reach ≥ 50 % of this;
 *  - raw, all statements of the call: the same plus the session statements every signed-in
 *    call makes (read session, user, supplier; rewrite the session row), which tells the cost
 *    of the api's own layers (HTTP, validation, Prisma, JSON) apart from the cost of its SQL.
 * The server runs as `pnpm start` runs it (lib/run-style.ts). The raw pool has 10 connections,
 * like the api's. Before timing a case, one api answer and one
 * raw answer are compared (same ids, same total): a raw query that drifted from the service's
 * would fail the benchmark instead of flattering it.
 */
import pg from 'pg';
import { Pool } from 'undici';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { CONNECTION_OPTIONS } from '../src/db/database.ts';
import { ensureBigData, type BigData } from './generate.ts';
import { apiPost, login, sidOf } from './lib/api-client.ts';
import { confirmationsQuery, filePageQuery, logPageQuery, shortContains, visibleMaterialsQuery, withSessionStatements, type Cond } from './lib/archive-sql.ts';
import { cpuMeter } from './lib/cpu.ts';
import { closedLoop, type LoadResult } from './lib/load.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { startServer } from './lib/server.ts';
import { fmt } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API_POOL = 10; // PrismaPg({ max: 10 }) in src/db/database.ts
const STAFF = ['demo3', 'demo7', 'demo8', 'demo9'];
/** demo2's supplier S001 supplies the most materials of the data set (300). */
const SUPPLIER_ACCOUNT = 'demo2';

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
  /** The page's own statements, as the service runs them. */
  raw(sql: pg.Pool): Promise<Page>;
  /** Also timed with one client alone (latency without queueing: the search goal's p95). */
  alone?: boolean;
}

const capped = (n: number): Pick<Page, 'total' | 'totalCapped'> => (n > LIST_WINDOW_MAX ? { total: LIST_WINDOW_MAX, totalCapped: true } : { total: n, totalCapped: false });

async function pageAndCount(sql: pg.Pool, q: ReturnType<typeof filePageQuery>): Promise<Page> {
  const { rows } = await sql.query(q);
  return { ids: rows[0]?.__ord == null ? [] : rows.map((r) => r.id as number), ...capped(Number(rows[0]?.__total ?? 0)) };
}

const filesCase = (name: string, conds: Cond[], body: Record<string, unknown>, page = 1): Case => ({
  name,
  who: 'staff',
  path: 'haier/standardFile/getStandardFilePager',
  body: { page, results: 10, ...body },
  raw: (sql) => pageAndCount(sql, filePageQuery(conds, page, 10)),
});

const logCase = (name: string, conds: Cond[], body: Record<string, unknown>, page = 1): Case => ({
  name,
  who: 'staff',
  path: 'haier/standardLookingup/searchStandardLookingup',
  body: { page, results: 10, ...body },
  raw: (sql) => pageAndCount(sql, logPageQuery([['action = ?', 'VIEW'], ...conds], page, 10)),
});

/** supplier/standardFile/getStandardFilePager: scope, then the page with its count, then the user's confirmations of the page. */
function supplierCase(supplierCode: string, userId: number): Case {
  return {
    name: `supplier's archive list (${supplierCode}), page 1`,
    who: 'supplier',
    path: 'supplier/standardFile/getStandardFilePager',
    body: { page: 1, results: 10 },
    async raw(sql) {
      const codes = (await sql.query(visibleMaterialsQuery(supplierCode, new Date()))).rows.map((r) => r.code as string);
      const page = await pageAndCount(sql, filePageQuery([['sf.status = ?', 'EFFECTIVE'], ['sf.material_code = ANY(?::text[])', codes]], 1, 10));
      if (page.ids.length) await sql.query(confirmationsQuery(userId, page.ids));
      return page;
    },
  };
}

/** The cases, with their filter values taken from the data (a typical material and supplier). */
async function cases(big: BigData): Promise<{ list: Case[]; notes: string[] }> {
  const c = new pg.Client({ connectionString: big.url });
  await c.connect();
  try {
    const one = async (text: string, values: unknown[] = []) => (await c.query(text, values)).rows[0];
    const material = (await one(`SELECT code FROM material ORDER BY code LIMIT 1`)).code as string;
    const materialFiles = Number((await one(`SELECT count(*) AS n FROM standard_file WHERE material_code = $1`, [material])).n);
    // the busiest supplier in the log (S001, skewed on purpose) and one from the middle of the list
    const typical = (await one(`SELECT code FROM supplier WHERE code LIKE 'V%' ORDER BY code OFFSET (SELECT count(*) / 2 FROM supplier) LIMIT 1`)).code as string;
    const views = async (s: string) => Number((await one(`SELECT count(*) AS n FROM access_log WHERE action = 'VIEW' AND supplier_code = $1`, [s])).n);
    const [bigViews, typicalViews] = [await views('S001'), await views(typical)];
    const views2 = async (u: string) => Number((await one(`SELECT count(*) AS n FROM access_log WHERE action = 'VIEW' AND (strpos(lower(user_account), $1) > 0 OR strpos(lower(user_name), $1) > 0)`, [u])).n);
    const names = async (n: string) => Number((await one(`SELECT count(*) AS n FROM standard_file WHERE strpos(lower(name), $1) > 0`, [n])).n);
    const obsolete = Number((await one(`SELECT count(*) AS n FROM standard_file WHERE status = 'OBSOLETE'`)).n);
    const user = (await one(`SELECT id FROM app_user WHERE account = $1`, [SUPPLIER_ACCOUNT])).id as number;
    const supplierFiles = Number(
      (
        await one(
          `SELECT count(*) AS n FROM standard_file sf WHERE status = 'EFFECTIVE' AND material_code IN (SELECT g.material_code FROM empower_grant g JOIN supplier_material sm USING (supplier_code, material_code)
           WHERE g.supplier_code = 'S001' AND g.revoked_at IS NULL AND g.valid_from <= now() AT TIME ZONE 'UTC' AND g.valid_until > now() AT TIME ZONE 'UTC')`,
        )
      ).n,
    );
    const list: Case[] = [
      filesCase('archive list, page 1 (all 1M files, newest first)', [], {}),
      filesCase(`archive list, material ${material} (${materialFiles} files)`, [['sf.material_code = ?', material]], { materialCode: material }),
      filesCase('archive list, status EFFECTIVE (~1/3 of the files)', [['sf.status = ?', 'EFFECTIVE']], { status: 'EFFECTIVE' }),
      filesCase(`archive list, status OBSOLETE (${obsolete} files)`, [['sf.status = ?', 'OBSOLETE']], { status: 'OBSOLETE' }),
      logCase('view log, page 1 (all VIEW rows)', [], {}),
      logCase(`view log, supplier S001 (${bigViews} rows)`, [['supplier_code = ?', 'S001']], { supplierCode: 'S001' }),
      logCase(`view log, supplier ${typical} (${typicalViews} rows)`, [['supplier_code = ?', typical]], { supplierCode: typical }),
      supplierCase('S001', user),
      filesCase('archive list, page 500 (rows 4,991–5,000)', [], {}, 500),
      filesCase('archive list, page 1000 (rows 9,991–10,000, the window end)', [], {}, 1000),
      logCase('view log, page 1000 (rows 9,991–10,000)', [], {}, 1000),
      // two characters have no trigram: lib/list.ts containsText asks the bigram indexes
      { ...logCase(`view log, user 孙静 (2 characters, ${await views2('孙静')} rows)`, [[`(${shortContains('user_account')} OR ${shortContains('user_name')})`, '孙静', '孙静', '孙静', '孙静']], { user: '孙静' }), alone: true },
      { ...filesCase(`archive list, name 门体 (2 characters, ${await names('门体')} files)`, [[shortContains('sf.name'), '门体', '门体']], { name: '门体' }), alone: true },
    ];
    return { list, notes: [`S001 sees ${supplierFiles} effective files (materials it supplies with a valid grant)`] };
  } finally {
    await c.end();
  }
}

async function apiPage(http: Pool, c: Case, cookie: string): Promise<Page> {
  const res = await apiPost<{ id: number }[]>(http, c.path, c.body, cookie);
  if (res.status !== 200 || res.json.success !== true || !Array.isArray(res.json.data)) throw new Error(`${c.path}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
  return { ids: res.json.data.map((r) => r.id), total: res.json.total ?? -1, totalCapped: res.json.totalCapped ?? false };
}

/** Same rows, same total: the raw side runs the page the api runs. */
function sameAnswer(c: Case, api: Page, raw: Page) {
  const a = JSON.stringify(api);
  const r = JSON.stringify(raw);
  if (a !== r) throw new Error(`${c.name}: raw SQL answers ${r}, the api ${a}`);
  if (api.ids.length === 0) throw new Error(`${c.name}: empty page, nothing to measure`);
}

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const big = await ensureBigData();
  const { list: all, notes } = await cases(big);
  // BENCH_CASES=<regex>: only the cases whose name matches (e.g. 'page 1 \\(|S001')
  const only = process.env.BENCH_CASES ? new RegExp(process.env.BENCH_CASES) : undefined;
  const list = all.filter((c) => !only || only.test(c.name));
  const style = serverStyle();
  progress(`server run with: ${describeStyle(style)}`);
  const server = await startServer({ dataDir: big.dataDir, databaseUrl: big.url, nodeArgs: style.flags, env: style.env });
  const http = new Pool(server.base, { connections: clients });
  const sql = new pg.Pool({ connectionString: big.url, max: API_POOL, options: CONNECTION_OPTIONS }); // as the api's pool
  const db = { url: big.url, name: big.name };
  const rows: Row[] = [];
  try {
    const cookies = { staff: [] as string[], supplier: [] as string[] };
    for (let i = 0; i < clients; i++) {
      cookies.staff.push(await login(http, STAFF[i % STAFF.length]!));
      cookies.supplier.push(await login(http, SUPPLIER_ACCOUNT));
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
      const all = await closedLoop(async (client) => void (await withSessionStatements(sql, sidOf(cookieOf(client)), () => c.raw(sql))), { ...loop, meter: cpuMeter('self', db) });

      const alone = c.alone ? (progress(`${c.name}: api, one client, ${seconds} s`), await closedLoop(async () => void (await apiPage(http, c, cookieOf(0))), { ...loop, concurrency: 1, warmupOps: 16 })) : undefined;

      const row = (via: string, r: LoadResult, ratio: string): Row => ({
        case: c.name,
        via,
        'req/s': fmt(r.perSecond),
        'p50 ms': fmt(r.p50Ms, 1),
        'p95 ms': fmt(r.p95Ms, 1),
        'p99 ms': fmt(r.p99Ms, 1),
        'api ÷ this': ratio,
        'app CPU ms/req': r.appCpuMsPerOp === undefined ? '—' : fmt(r.appCpuMsPerOp, 2),
        'db CPU ms/req': r.dbCpuMsPerOp === undefined ? '—' : fmt(r.dbCpuMsPerOp, 2),
        errors: r.errors,
      });
      const pct = (r: LoadResult) => `${fmt((api.perSecond / r.perSecond) * 100)} %`;
      for (const [via, r] of [['api', api], ['raw', raw], ['raw+session', all]] as const) if (r.errors) progress(`${c.name} (${via}): ${r.errors} errors, first: ${r.firstError}`);
      progress(`${c.name}: api ${api.perSecond.toFixed(0)}/s, raw ${raw.perSecond.toFixed(0)}/s (${pct(raw)}), raw+session ${all.perSecond.toFixed(0)}/s`);
      rows.push(row('api', api, '—'), row('raw page query', raw, pct(raw)), row('raw + session statements', all, pct(all)));
      if (alone) {
        progress(`${c.name}: one client: p50 ${alone.p50Ms.toFixed(1)} ms, p95 ${alone.p95Ms.toFixed(1)} ms`);
        rows.push(row('api, one client alone', alone, '—'));
      }
    }
  } finally {
    await sql.end();
    await http.close();
    await server.stop();
  }
  for (const n of notes) progress(n);
  return rows;
}
