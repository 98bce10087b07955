/**
 * What the audit chain costs, each case paired in the same run (chain on / off in turns) so a
 * busy machine disturbs both sides alike; CPU per row of the Postgres backend as well as time:
 *  - inserts: BENCH_CHAIN_ROWS (2000) access_log rows, one per transaction as the acts write them,
 *    and the same number in one INSERT … SELECT, with the chain trigger on and off (ALTER TABLE …
 *    DISABLE TRIGGER), BENCH_RUNS rounds of each;
 *  - downloads: 50 concurrent downloads of a small drawing through file/download on a running
 *    server (demo data), chain on and off in turns: p50 / p95 / all done, CPU of server + Postgres
 *    per download, and that every download is a chained row when the chain is on;
 *  - backfill: BENCH_BACKFILL_ROWS (200,000) access_log rows without a chain given one, by the first
 *    chain migration's backfill (one UPDATE per row, its function read from that migration) and by
 *    audit_chain_fill (one pass, one UPDATE); both must give the same head hash.
 * BENCH_CHAIN_PARTS (inserts,downloads,backfill): which of the three to run.
 */
import path from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { openDatabase } from '../src/db/database.ts';
import { readMigrations, splitStatements } from '../src/db/migrations.ts';
import { API, login } from './lib/api-client.ts';
import { processCpuMs, postgresCpuByPid, cpuBetween } from './lib/cpu.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { startServer, tempDir } from './lib/server.ts';
import { fmt, median, percentile } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';
import { addFile, dwgBytes } from './downloads.ts';

const ROWS = Number(process.env.BENCH_CHAIN_ROWS ?? 2000);
const BACKFILL_ROWS = Number(process.env.BENCH_BACKFILL_ROWS ?? 200_000);
const DOWNLOADS = 50;

const LOG_ROW = `('VIEW', 'OK', 1, 'bench', '基准测试用户', 2, 'S001', '青岛海达精密机械有限公司', 1, 'HR-BENCH-0001', '基准图纸.pdf', 'A', '0064000101', '箱体', '10.0.0.1', 'bench')`;
const LOG_COLUMNS =
  '(action, outcome, user_id, user_account, user_name, user_type, supplier_code, supplier_name, file_id, standard_code, file_name, version, material_code, material_name, ip, user_agent)';

async function chain(c: pg.Client, on: boolean): Promise<void> {
  await c.query(`ALTER TABLE access_log ${on ? 'ENABLE' : 'DISABLE'} TRIGGER access_log_chain`);
}

/** Runs `fn` and answers its wall ms and the CPU ms of the backend `c` talks to. */
async function timed(c: pg.Client, backend: number, fn: () => Promise<void>): Promise<{ ms: number; cpu: number }> {
  const cpu0 = processCpuMs(backend);
  const t0 = performance.now();
  await fn();
  return { ms: performance.now() - t0, cpu: processCpuMs(backend) - cpu0 };
}

async function inserts(c: pg.Client, backend: number, runs: number): Promise<Row[]> {
  const cases = [
    {
      what: `${ROWS} rows, one transaction each`,
      run: async () => {
        for (let i = 0; i < ROWS; i++)
          await c.query({ name: 'log-row', text: `INSERT INTO access_log ${LOG_COLUMNS} VALUES ${LOG_ROW}` });
      },
    },
    {
      what: `${ROWS} rows in one INSERT … SELECT`,
      run: async () => {
        await c.query(
          `INSERT INTO access_log ${LOG_COLUMNS} SELECT ${LOG_ROW.slice(1, -1)} FROM generate_series(1, ${ROWS})`,
        );
      },
    },
  ];
  const rows: Row[] = [];
  for (const k of cases) {
    const on: { ms: number; cpu: number }[] = [];
    const off: { ms: number; cpu: number }[] = [];
    for (let r = 0; r < runs; r++) {
      progress(`audit-chain: inserts, ${k.what}, round ${r + 1}/${runs}`);
      for (const chained of [true, false]) {
        await chain(c, chained);
        (chained ? on : off).push(await timed(c, backend, k.run));
      }
    }
    await chain(c, true);
    const per = (xs: { ms: number; cpu: number }[], f: 'ms' | 'cpu') => (median(xs.map((x) => x[f])) * 1000) / ROWS;
    const ratio = median(on.map((x, i) => x.cpu / Math.max(1, off[i]!.cpu)));
    rows.push({
      case: `insert: ${k.what}`,
      'chain on µs/row': fmt(per(on, 'ms')),
      'chain off µs/row': fmt(per(off, 'ms')),
      'on CPU µs/row': fmt(per(on, 'cpu')),
      'off CPU µs/row': fmt(per(off, 'cpu')),
      'CPU on/off (paired)': fmt(ratio, 2),
    });
  }
  return rows;
}

async function downloads(runs: number): Promise<Row[]> {
  const db = await createBenchDatabase();
  const data = tempDir('audit-chain');
  const server = await startServer({
    dataDir: data.dir,
    databaseUrl: db.url,
    env: { SEED_DEMO: 'true', LOG_LEVEL: 'warn' },
  });
  const http = new Pool(server.base, { connections: DOWNLOADS + 2 });
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    const id = await addFile(db.url, path.join(data.dir, 'files'), dwgBytes(256 * 1024), 'dwg', 'HR-BENCH-CHAIN');
    const cookie = await login(http, 'demo3');
    const once = async () => {
      const t0 = performance.now();
      const res = await http.request({
        method: 'POST',
        path: `${API}/file/download`,
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ id }),
      });
      await res.body.dump();
      return { ok: res.statusCode === 200, ms: performance.now() - t0 };
    };
    await once(); // warm
    const results = {
      on: [] as { p50: number; p95: number; all: number; cpu: number; failed: number }[],
      off: [] as { p50: number; p95: number; all: number; cpu: number; failed: number }[],
    };
    for (let r = 0; r < runs; r++) {
      for (const chained of [true, false]) {
        progress(
          `audit-chain: ${DOWNLOADS} concurrent downloads, chain ${chained ? 'on' : 'off'}, round ${r + 1}/${runs}`,
        );
        await chain(c, chained);
        await c.query(`ALTER TABLE access_delivery ${chained ? 'ENABLE' : 'DISABLE'} TRIGGER access_delivery_chain`);
        const pg0 = postgresCpuByPid(db.name);
        const app0 = processCpuMs(server.proc.pid!);
        const t0 = performance.now();
        const answers = await Promise.all(Array.from({ length: DOWNLOADS }, once));
        const all = performance.now() - t0;
        const cpu = processCpuMs(server.proc.pid!) - app0 + cpuBetween(pg0, postgresCpuByPid(db.name));
        const ms = answers.map((a) => a.ms);
        results[chained ? 'on' : 'off'].push({
          p50: percentile(ms, 50),
          p95: percentile(ms, 95),
          all,
          cpu: cpu / DOWNLOADS,
          failed: answers.filter((a) => !a.ok).length,
        });
      }
    }
    await chain(c, true);
    await c.query('ALTER TABLE access_delivery ENABLE TRIGGER access_delivery_chain');
    const unchained = await c.query<{ n: string }>(
      `SELECT count(*) AS n FROM access_log WHERE standard_code = 'HR-BENCH-CHAIN' AND chain_seq IS NULL`,
    );
    progress(
      `audit-chain: ${unchained.rows[0]!.n} download rows written with the chain off (expected ${DOWNLOADS * runs})`,
    );
    const line = (what: string, xs: (typeof results)['on']): Row => ({
      case: `${DOWNLOADS} concurrent downloads (256 KB DWG), chain ${what}`,
      'p50 ms': fmt(median(xs.map((x) => x.p50))),
      'p95 ms': fmt(median(xs.map((x) => x.p95))),
      'all done ms': fmt(median(xs.map((x) => x.all))),
      'CPU ms/download (api + Postgres)': fmt(median(xs.map((x) => x.cpu)), 1),
      failed: xs.reduce((s, x) => s + x.failed, 0),
    });
    return [line('on', results.on), line('off', results.off)];
  } finally {
    await c.end();
    await http.close();
    await server.stop();
    await db.drop();
    await data.remove();
  }
}

/** The first chain migration's row-by-row backfill, as it ran, as a function of this session. */
async function rowByRowBackfill(): Promise<string> {
  const m = (await readMigrations()).find((x) => x.name.endsWith('_audit_chain'))!;
  const head = 'CREATE FUNCTION "audit_chain_backfill"';
  const fn = splitStatements(m.sql).find((s) => s.includes(head));
  if (!fn) throw new Error('the audit_chain migration no longer holds its backfill function');
  return fn.slice(fn.indexOf(head)).replace(head, 'CREATE FUNCTION pg_temp.audit_chain_backfill');
}

async function backfill(c: pg.Client, backend: number): Promise<Row[]> {
  progress(`audit-chain: ${BACKFILL_ROWS} unchained access_log rows`);
  await chain(c, false);
  await c.query('TRUNCATE access_log CASCADE');
  await c.query(
    `INSERT INTO access_log ${LOG_COLUMNS.replace(')', ', created_at)')} SELECT ${LOG_ROW.slice(1, -1)}, timestamp '2026-01-01' + g * interval '7 seconds' FROM generate_series(1, ${BACKFILL_ROWS}) g`,
  );
  await chain(c, true);
  await c.query(await rowByRowBackfill());
  const unchain = async () => {
    await c.query('UPDATE access_log SET chain_seq = NULL, prev_hash = NULL, row_hash = NULL');
    await c.query('VACUUM access_log');
  };
  const head = async () =>
    (await c.query<{ h: string }>('SELECT row_hash AS h FROM access_log ORDER BY chain_seq DESC LIMIT 1')).rows[0]!.h;
  const cases = [
    {
      what: 'row by row (the first chain migration: one UPDATE per row)',
      sql: `SELECT pg_temp.audit_chain_backfill('access_log', 'created_at', 'true')`,
    },
    {
      what: 'set-based (audit_chain_fill: one pass, one UPDATE)',
      sql: `SELECT audit_chain_fill('access_log', 'created_at', 'true')`,
    },
  ];
  const rows: Row[] = [];
  const heads: string[] = [];
  for (const k of cases) {
    await unchain();
    progress(`audit-chain: backfill ${k.what}`);
    const t = await timed(c, backend, async () => {
      await c.query(k.sql);
    });
    heads.push(await head());
    rows.push({
      case: `backfill ${BACKFILL_ROWS} rows: ${k.what}`,
      s: fmt(t.ms / 1000, 1),
      'CPU s': fmt(t.cpu / 1000, 1),
      'rows/s': fmt((BACKFILL_ROWS * 1000) / t.ms),
    });
  }
  if (heads[0] !== heads[1]) throw new Error(`the two backfills disagree: ${heads[0]} vs ${heads[1]}`);
  progress('audit-chain: both backfills give the same head');
  return rows;
}

export async function run(settings: BenchSettings): Promise<Row[]> {
  const db = await createBenchDatabase();
  const database = await openDatabase({ databaseUrl: db.url, dataDir: '' });
  const c = new pg.Client({ connectionString: db.url });
  try {
    await database.migrate();
    await c.connect();
    const backend = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const parts = (process.env.BENCH_CHAIN_PARTS ?? 'inserts,downloads,backfill').split(',');
    const rows: Row[] = [];
    if (parts.includes('inserts')) rows.push(...(await inserts(c, backend, settings.runs)));
    if (parts.includes('downloads')) rows.push(...(await downloads(settings.runs)));
    if (parts.includes('backfill')) rows.push(...(await backfill(c, backend)));
    return rows;
  } finally {
    await c.end();
    await database.close();
    await db.drop();
  }
}
