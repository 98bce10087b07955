/**
 * Two ways of running the api, side by side on one database: each call below in short closed-loop
 * bursts (BENCH_CLIENTS clients) against one server and then the other, the order turning each
 * round, and the servers' own CPU per call read from /proc after each burst. On a shared 2-core
 * machine a list benchmark's figures move by ±25 % from one minute to the next; a pair of bursts
 * a few seconds apart sees the same neighbours, so the ratio of the pair is what a change is worth.
 *
 *  - BENCH_PAIRED_A, BENCH_PAIRED_B: the server entries (default `dist/server.mjs` both: an A/A
 *    run, which shows the noise of a pair), e.g. `dist-base/server.mjs` for a copy of an earlier build;
 *  - BENCH_PAIRED_STYLE_A, BENCH_PAIRED_STYLE_B: how each runs, as BENCH_SERVER_STYLE ('NAME=value
 *    --flag', 'none'; default: as `pnpm start`);
 *  - BENCH_PAIRED_ROUNDS (10), BENCH_PAIRED_SECONDS (3): rounds, and the length of a burst.
 *
 * On the demo data set (SEED_DEMO): the calls a day starts with, cheap ones (a few rows each),
 * where the api's own cost per call decides.
 */
import { Pool } from 'undici';
import { apiPost, login } from './lib/api-client.ts';
import { processCpuMs } from './lib/cpu.ts';
import { closedLoop } from './lib/load.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { describeStyle, styleOf } from './lib/run-style.ts';
import { startServer, tempDir, type RunningServer } from './lib/server.ts';
import { median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

interface Call {
  what: string;
  account: string;
  path: string;
  body: unknown;
}

const CALLS: Call[] = [
  {
    what: "a supplier's own questions",
    account: 'demo2',
    path: 'supplier/documentissue/paging',
    body: { page: 1, results: 10 },
  },
  { what: "a supplier's notice bell", account: 'demo2', path: 'supplier/standardlog/getUnReadNotice', body: {} },
  {
    what: "the answerers' questions",
    account: 'demo5',
    path: 'haier/documentissue/paging',
    body: { page: 1, results: 10 },
  },
  {
    what: 'the archive list, page 1',
    account: 'demo3',
    path: 'haier/standardFile/getStandardFilePager',
    body: { page: 1, results: 10 },
  },
];

const WARMUP = 200;

export async function run(settings: BenchSettings): Promise<Row[]> {
  const rounds = Number(process.env.BENCH_PAIRED_ROUNDS ?? 10);
  const burstMs = Number(process.env.BENCH_PAIRED_SECONDS ?? 3) * 1000;
  const sides = (['A', 'B'] as const).map((name) => ({
    name,
    entry: process.env[`BENCH_PAIRED_${name}`] ?? 'dist/server.mjs',
    style: styleOf(process.env[`BENCH_PAIRED_STYLE_${name}`]),
  }));
  const db = await createBenchDatabase();
  const servers: { name: string; server: RunningServer; http: Pool }[] = [];
  try {
    // The demo data by a server of its own, stopped before the two start. When the first of the
    // two seeded, a run of builds that differ in one list read 6–14 % less CPU per call for the
    // other on calls neither build changed: the seeding server carries the seed's heap along.
    progress('seeding the demo data');
    await (
      await startServer({ dataDir: tempDir('paired').dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } })
    ).stop();
    for (const side of sides) {
      progress(`${side.name}: ${side.entry}, run with ${describeStyle(side.style)}`);
      const server = await startServer({
        dataDir: tempDir('paired').dir,
        databaseUrl: db.url,
        entry: [side.entry],
        nodeArgs: side.style.flags,
        env: { ...side.style.env, SEED_DEMO: 'false' },
      });
      servers.push({ name: side.name, server, http: new Pool(server.base, { connections: settings.clients }) });
    }
    const rows: Row[] = [];
    for (const call of CALLS) {
      const sessions: ((typeof servers)[number] & { cookies: string[]; cpuUs: number[]; rate: number[] })[] = [];
      for (const s of servers) {
        const cookies: string[] = [];
        for (let i = 0; i < settings.clients; i++) cookies.push(await login(s.http, call.account));
        const probe = await apiPost(s.http, call.path, call.body, cookies[0]);
        if (probe.status !== 200 || probe.json.success !== true)
          throw new Error(`${s.name} ${call.path}: ${probe.status} ${JSON.stringify(probe.json)}`);
        sessions.push({ ...s, cookies, cpuUs: [] as number[], rate: [] as number[] });
      }
      const burst = async (s: (typeof sessions)[number], ms: number) => {
        const pid = s.server.proc.pid!;
        const cpu0 = processCpuMs(pid);
        const r = await closedLoop(
          async (client) => {
            const a = await apiPost(s.http, call.path, call.body, s.cookies[client]);
            if (a.status !== 200) throw new Error(`${a.status}`);
          },
          { concurrency: settings.clients, durationMs: ms, warmupOps: WARMUP },
        );
        if (r.errors) throw new Error(`${s.name} ${call.path}: ${r.errors} errors (${r.firstError})`);
        // the CPU read covers the warm-up operations too
        return { cpuUs: ((processCpuMs(pid) - cpu0) / (r.ops + WARMUP)) * 1000, rate: r.perSecond };
      };
      for (const s of sessions) await burst(s, 2000); // JIT and pools warm before the first pair
      const ratios: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const order = i % 2 ? [...sessions].reverse() : sessions;
        for (const s of order) {
          const b = await burst(s, burstMs);
          s.cpuUs.push(b.cpuUs);
          s.rate.push(b.rate);
        }
        ratios.push(sessions[1]!.cpuUs[i]! / sessions[0]!.cpuUs[i]!);
        progress(
          `${call.what}, round ${i + 1}: ${sessions.map((s) => `${s.name} ${s.cpuUs[i]!.toFixed(0)} µs ${s.rate[i]!.toFixed(0)}/s`).join(', ')}`,
        );
      }
      const [a, b] = sessions as [(typeof sessions)[number], (typeof sessions)[number]];
      const sorted = [...ratios].sort((p, q) => p - q);
      rows.push({
        call: `${call.what} (${call.account}, ${call.path})`,
        'A µs CPU / call': median(a.cpuUs).toFixed(0),
        'B µs CPU / call': median(b.cpuUs).toFixed(0),
        'A calls/s': median(a.rate).toFixed(0),
        'B calls/s': median(b.rate).toFixed(0),
        'B ÷ A CPU (median of pairs)': median(ratios).toFixed(2),
        'pairs, lowest–highest': `${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}`,
      });
    }
    rows.push(...sides.map((s) => ({ call: `${s.name}: ${s.entry}, run with ${describeStyle(s.style)}` })));
    return rows;
  } finally {
    for (const s of servers) {
      await s.http.close();
      await s.server.stop();
    }
    await db.drop();
  }
}
