/**
 * Start-up time of the real entry point, spawn → first 200 from GET /esm-server/health:
 *  - cold: an empty data dir (embedded PGlite: initdb, migrate, seed) or an empty Postgres
 *    database (migrate, seed with SEED_DEMO=true);
 *  - warm: the same data dir / database again, already initialised (migrations checked, menu
 *    upserted, seed skipped);
 *  - floor: `node` with nothing to run, the part no change to the app removes.
 * Each is repeated BENCH_RUNS times (fresh dir / database per cold run); the median is reported.
 */
import { createBenchDatabase } from './lib/postgres.ts';
import { loaderFloorMs, startServer, tempDir, type ServerOptions } from './lib/server.ts';
import { fmt, median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

async function timeStart(opts: ServerOptions, expectInit: boolean): Promise<number> {
  const server = await startServer(opts);
  try {
    // Honesty check: a cold start must have migrated and seeded, a warm one must not have.
    const out = server.output();
    const initialised = out.includes('migrations applied') && out.includes('demo data seeded');
    const reinitialised = out.includes('migrations applied') || out.includes('demo data seeded');
    if (expectInit ? !initialised : reinitialised) throw new Error(`${expectInit ? 'cold' : 'warm'} start did not behave as one:\n${out}`);
    return server.readyMs;
  } finally {
    await server.stop();
  }
}

function row(start: string, database: string, ms: number[]): Row {
  return { start, database, runs: ms.length, 'median ms': fmt(median(ms)), 'min ms': fmt(Math.min(...ms)), 'max ms': fmt(Math.max(...ms)) };
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const floor: number[] = [];
  const t = { embeddedCold: [] as number[], embeddedWarm: [] as number[], pgCold: [] as number[], pgWarm: [] as number[] };
  for (let i = 1; i <= runs; i++) {
    progress(`cold-start run ${i}/${runs}`);
    floor.push(await loaderFloorMs());

    const embedded = tempDir('embedded');
    t.embeddedCold.push(await timeStart({ dataDir: embedded.dir }, true));
    t.embeddedWarm.push(await timeStart({ dataDir: embedded.dir }, false));
    await embedded.remove();

    const db = await createBenchDatabase();
    const dir = tempDir('pg'); // holds only the generated session secret
    const opts: ServerOptions = { dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } };
    t.pgCold.push(await timeStart(opts, true));
    t.pgWarm.push(await timeStart(opts, false));
    await db.drop();
    await dir.remove();
  }
  return [
    row('floor: node, empty', '—', floor),
    row('cold (empty data dir)', 'embedded PGlite', t.embeddedCold),
    row('warm (same data dir)', 'embedded PGlite', t.embeddedWarm),
    row('cold (empty database)', 'Postgres', t.pgCold),
    row('warm (same database)', 'Postgres', t.pgWarm),
  ];
}
