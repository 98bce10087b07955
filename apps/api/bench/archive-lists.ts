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
import { archivesApi, logsApi } from '@esm/contracts';
import { CONNECTION_OPTIONS } from '../src/db/database.ts';
import { ensureBigData, type BigData } from './generate.ts';
import { login } from './lib/api-client.ts';
import { pgQuery, rawPage, pageOf, runListCases, selectedCases, type ListCase } from './lib/list-bench.ts';
import { listPageStatement } from '../src/lib/list.ts';
import { logListParts } from '../src/modules/logs/service.ts';
import { fileFilterOf, filePageStatement } from '../src/modules/archives/file-query.ts';
import { visibleMaterialCodesSql } from '../src/modules/empower/grants.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { startServer } from './lib/server.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API_POOL = 10; // PrismaPg({ max: 10 }) in src/db/database.ts
const STAFF = ['demo3', 'demo7', 'demo8', 'demo9'];
/** demo2's supplier S001 supplies the most materials of the data set (300). */
const SUPPLIER_ACCOUNT = 'demo2';

/** haier/standardFile/getStandardFilePager: the statement the route has pageFiles send for this body. */
function filesCase(name: string, filter: Record<string, unknown>, page = 1): ListCase {
  const body = { page, results: 10, ...filter };
  const q = archivesApi.files.body.parse(body);
  return {
    name,
    who: 'staff',
    path: archivesApi.files.path,
    body,
    raw: async (sql) => pageOf(await rawPage(sql, filePageStatement(fileFilterOf(q), q))),
  };
}

/** haier/standardLookingup/searchStandardLookingup: the statement pageLog sends for this body. */
function logCase(name: string, filter: Record<string, unknown>, page = 1): ListCase {
  const body = { page, results: 10, ...filter };
  const q = logsApi.VIEW.body.parse(body);
  return {
    name,
    who: 'staff',
    path: logsApi.VIEW.path,
    body,
    raw: async (sql) => pageOf(await rawPage(sql, listPageStatement(q, logListParts('VIEW', q)))),
  };
}

/** supplier/standardFile/getStandardFilePager: its scope, then the page with its count and the user's confirmations, as the service builds them. */
function supplierCase(supplierCode: string, userId: number): ListCase {
  const body = { page: 1, results: 10 };
  return {
    name: `supplier's archive list (${supplierCode}), page 1`,
    who: 'supplier',
    path: 'supplier/standardFile/getStandardFilePager',
    body,
    async raw(sql) {
      const materialCodes = (await sql.query(pgQuery(visibleMaterialCodesSql(supplierCode, new Date())))).rows.map(
        (r) => r.code as string,
      );
      return pageOf(
        await rawPage(
          sql,
          filePageStatement({ statuses: ['EFFECTIVE'], materialCodes }, body, { confirmedBy: userId }),
        ),
      );
    },
  };
}

/** The cases, with their filter values taken from the data (a typical material and supplier). */
async function cases(big: BigData): Promise<{ list: ListCase[]; notes: string[] }> {
  const c = new pg.Client({ connectionString: big.url });
  await c.connect();
  try {
    const one = async (text: string, values: unknown[] = []) => (await c.query(text, values)).rows[0];
    const material = (await one(`SELECT code FROM material ORDER BY code LIMIT 1`)).code as string;
    const materialFiles = Number(
      (await one(`SELECT count(*) AS n FROM standard_file WHERE material_code = $1`, [material])).n,
    );
    // the busiest supplier in the log (S001, skewed on purpose) and one from the middle of the list
    const typical = (
      await one(
        `SELECT code FROM supplier WHERE code LIKE 'V%' ORDER BY code OFFSET (SELECT count(*) / 2 FROM supplier) LIMIT 1`,
      )
    ).code as string;
    const views = async (s: string) =>
      Number((await one(`SELECT count(*) AS n FROM access_log WHERE action = 'VIEW' AND supplier_code = $1`, [s])).n);
    const [bigViews, typicalViews] = [await views('S001'), await views(typical)];
    const views2 = async (u: string) =>
      Number(
        (
          await one(
            `SELECT count(*) AS n FROM access_log WHERE action = 'VIEW' AND (strpos(lower(user_account), $1) > 0 OR strpos(lower(user_name), $1) > 0)`,
            [u],
          )
        ).n,
      );
    const names = async (n: string) =>
      Number((await one(`SELECT count(*) AS n FROM standard_file WHERE strpos(lower(name), $1) > 0`, [n])).n);
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
    const list: ListCase[] = [
      filesCase('archive list, page 1 (all 1M files, newest first)', {}),
      filesCase(`archive list, material ${material} (${materialFiles} files)`, { materialCode: material }),
      filesCase('archive list, status EFFECTIVE (~1/3 of the files)', { status: 'EFFECTIVE' }),
      filesCase(`archive list, status OBSOLETE (${obsolete} files)`, { status: 'OBSOLETE' }),
      logCase('view log, page 1 (all VIEW rows)', {}),
      logCase(`view log, supplier S001 (${bigViews} rows)`, { supplierCode: 'S001' }),
      logCase(`view log, supplier ${typical} (${typicalViews} rows)`, { supplierCode: typical }),
      supplierCase('S001', user),
      filesCase('archive list, page 500 (rows 4,991–5,000)', {}, 500),
      filesCase('archive list, page 1000 (rows 9,991–10,000, the window end)', {}, 1000),
      logCase('view log, page 1000 (rows 9,991–10,000)', {}, 1000),
      // two characters have no trigram: lib/list.ts containsText asks the bigram indexes
      { ...logCase(`view log, user 孙静 (2 characters, ${await views2('孙静')} rows)`, { user: '孙静' }), alone: true },
      {
        ...filesCase(`archive list, name 门体 (2 characters, ${await names('门体')} files)`, { name: '门体' }),
        alone: true,
      },
    ];
    return { list, notes: [`S001 sees ${supplierFiles} effective files (materials it supplies with a valid grant)`] };
  } finally {
    await c.end();
  }
}

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const big = await ensureBigData();
  const { list: all, notes } = await cases(big);
  // BENCH_CASES=<regex>: only the cases whose name matches (e.g. 'page 1 \\(|S001')
  const list = selectedCases(all);
  const style = serverStyle();
  progress(`server run with: ${describeStyle(style)}`);
  const server = await startServer({
    dataDir: big.dataDir,
    databaseUrl: big.url,
    nodeArgs: style.flags,
    env: style.env,
  });
  const http = new Pool(server.base, { connections: clients });
  const sql = new pg.Pool({ connectionString: big.url, max: API_POOL, options: CONNECTION_OPTIONS }); // as the api's pool
  const db = { url: big.url, name: big.name };
  try {
    const cookies = { staff: [] as string[], supplier: [] as string[] };
    for (let i = 0; i < clients; i++) {
      cookies.staff.push(await login(http, STAFF[i % STAFF.length]!));
      cookies.supplier.push(await login(http, SUPPLIER_ACCOUNT));
    }
    return await runListCases({ cases: list, http, serverPid: server.proc.pid!, sql, db, cookies, seconds, clients });
  } finally {
    await sql.end();
    await http.close();
    await server.stop();
    for (const n of notes) progress(n);
  }
}
