/**
 * Throughput of the two calls every page load starts with, through the real server over HTTP
 * (127.0.0.1, keep-alive, BENCH_CLIENTS concurrent clients, BENCH_SECONDS each, closed loop):
 *  - login: POST user/login with the right password (demo2 … demo9 in turn). scrypt (N=16384,
 *    r=8) is meant to be slow, so this measures the hash more than the server. Only failed
 *    attempts are rate-limited, so correct passwords are never refused.
 *  - menu: POST main/getRoleFunction, one session per client. Each call reads the session row
 *    with its user and supplier (one joined statement) and the menu; the session row is
 *    rewritten only when its last write is a minute old — 2 statements.
 *  - for comparison, through `pg` from this process (pool of 10 = the api's pool, same clients):
 *    the menu query alone, and the statements of a menu call.
 * On a fresh Postgres database (migrated and seeded by the server's first start), then the
 * menu again on the embedded PGlite (fresh data dir).
 */
import pg from 'pg';
import { Pool } from 'undici';
import { sidOf } from './lib/api-client.ts';
import { SESSION_SQL, utc } from './lib/session-sql.ts';
import { cpuMeter } from './lib/cpu.ts';
import { closedLoop, loadRow } from './lib/load.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { startServer, tempDir, type RunningServer } from './lib/server.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API = '/esm-server/api';
const PASSWORD = 'Esm@2026';
/** demo2 … demo9 are user types 2 … 9 (2 and 4 are suppliers). */
const accountOf = (client: number) => `demo${2 + (client % 8)}`;
const typeOf = (client: number) => 2 + (client % 8);
const JSON_HEADERS = { 'content-type': 'application/json' };

async function post(http: Pool, path: string, body: unknown, cookie?: string) {
  const res = await http.request({
    method: 'POST',
    path: `${API}/${path}`,
    headers: cookie ? { ...JSON_HEADERS, cookie } : JSON_HEADERS,
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as { success?: boolean; code?: string; data?: unknown };
  return { status: res.statusCode, headers: res.headers, json };
}

async function login(http: Pool, client: number): Promise<string> {
  const res = await post(http, 'user/login', { account: accountOf(client), password: PASSWORD });
  if (res.status !== 200 || res.json.code !== '10000000')
    throw new Error(`login ${accountOf(client)}: ${res.status} ${JSON.stringify(res.json)}`);
  const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('esm_sid='));
  if (!setCookie) throw new Error('login set no esm_sid cookie');
  return setCookie.split(';')[0]!;
}

async function menu(http: Pool, cookie: string): Promise<void> {
  const res = await post(http, 'main/getRoleFunction', {}, cookie);
  if (res.status !== 200 || res.json.success !== true || !Array.isArray(res.json.data) || res.json.data.length === 0) {
    throw new Error(`menu: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
  }
}

/** The statements Prisma sends for a menu call (captured from its query log), as plain SQL. */
const SQL = {
  session: SESSION_SQL.read,
  menu: `SELECT m.id, m.cn, m.name, m.icon, m.router, m.mpid FROM menu_entry m
         WHERE EXISTS (SELECT g.menu_id FROM menu_grant g WHERE g.user_type = $1 AND m.id = g.menu_id AND g.menu_id IS NOT NULL)
         ORDER BY m.sort, m.id`,
};

async function loginAll(http: Pool, clients: number): Promise<string[]> {
  const cookies: string[] = [];
  for (let c = 0; c < clients; c++) cookies.push(await login(http, c));
  return cookies;
}

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const rows: Row[] = [];
  const loop = { concurrency: clients, durationMs: seconds * 1000 };
  const report = (what: string, target: string, r: Awaited<ReturnType<typeof closedLoop>>, digits = 0) => {
    if (r.errors) progress(`${what}: ${r.errors} errors, first: ${r.firstError}`);
    progress(
      `${what} (${target}): ${r.perSecond.toFixed(digits)}/s, p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`,
    );
    rows.push(loadRow(what, target, r, clients, digits));
  };

  // --- Postgres ---------------------------------------------------------------------------
  const db = await createBenchDatabase();
  const pgDir = tempDir('throughput-pg');
  let server: RunningServer | undefined = await startServer({
    dataDir: pgDir.dir,
    databaseUrl: db.url,
    env: { SEED_DEMO: 'true' },
  });
  let http = new Pool(server.base, { connections: clients });
  const pgMeter = (app: number | 'self') => ({ meter: cpuMeter(app, db) });
  try {
    progress(`login on Postgres, ${seconds} s`);
    report(
      'login (user/login, scrypt)',
      'Postgres',
      await closedLoop(async (c) => void (await login(http, c)), {
        ...loop,
        warmupOps: clients,
        ...pgMeter(server.proc.pid!),
      }),
      1,
    );

    const cookies = await loginAll(http, clients);
    progress(`menu on Postgres, ${seconds} s`);
    report(
      'menu (main/getRoleFunction)',
      'Postgres',
      await closedLoop((c) => menu(http, cookies[c]!), { ...loop, warmupOps: 200, ...pgMeter(server.proc.pid!) }),
    );

    const sql = new pg.Pool({ connectionString: db.url, max: 10 });
    try {
      progress(`raw SQL menu query, ${seconds} s`);
      report(
        'raw SQL: menu query only',
        'Postgres',
        await closedLoop(async (c) => void (await sql.query(SQL.menu, [typeOf(c)])), {
          ...loop,
          warmupOps: 200,
          ...pgMeter('self'),
        }),
      );

      progress(`raw SQL statements of a menu call, ${seconds} s`);
      const sids = cookies.map(sidOf);
      const statements = async (c: number) => {
        const s = (await sql.query(SQL.session, [sids[c], utc(new Date())])).rows[0];
        if (!s) throw new Error('session row missing');
        await sql.query(SQL.menu, [s.type]);
      };
      report(
        'raw SQL: both statements of a menu call',
        'Postgres',
        await closedLoop(statements, { ...loop, warmupOps: 200, ...pgMeter('self') }),
      );
    } finally {
      await sql.end();
    }
  } finally {
    await http.close();
    await server.stop();
    await db.drop();
    await pgDir.remove();
  }

  // --- embedded PGlite --------------------------------------------------------------------
  const dir = tempDir('throughput-embedded');
  server = await startServer({ dataDir: dir.dir });
  http = new Pool(server.base, { connections: clients });
  try {
    const cookies = await loginAll(http, clients);
    progress(`menu on embedded PGlite, ${seconds} s`);
    const meter = cpuMeter(server.proc.pid!); // the database runs inside the server process
    report(
      'menu (main/getRoleFunction)',
      'embedded PGlite',
      await closedLoop((c) => menu(http, cookies[c]!), { ...loop, warmupOps: 200, meter }),
    );
  } finally {
    await http.close();
    await server.stop();
    await dir.remove();
  }
  return rows;
}
