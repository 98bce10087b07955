/**
 * Start-up time of the real entry point, spawn → first 200 from GET /esm-server/health:
 *  - cold: an empty data dir (embedded PGlite: the demo image prepared at build time — the
 *    cluster with the demo data already seeded, used on the day it was seeded — unpacked; or, with
 *    DEMO_IMAGE=off as on a later day than the build, the reference image unpacked — initdb and
 *    every migration when there is none — then the demo seed) or an empty Postgres database
 *    (migrate, seed with SEED_DEMO=true);
 *  - warm: the same data dir / database again, already initialised (migrations checked, menu
 *    upserted, seed skipped);
 *  - floor: `node` with nothing to run, the part no change to the app removes.
 * Each is repeated BENCH_RUNS times (fresh dir / database per cold run); the median is reported,
 * and the server's own CPU time until that first 200 (less disturbed by a busy machine).
 */
import { createBenchDatabase } from './lib/postgres.ts';
import { loaderFloorMs, startServer, tempDir, type ServerOptions } from './lib/server.ts';
import { fmt, median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

interface Timing {
  ms: number;
  cpuMs: number;
}

const IMAGE = 'database created from the prepared image';
const DEMO_IMAGE = 'database created from the prepared demo image';

/** `expectInit`: a cold start, and how its demo data must have come (the demo image, or a seed at start). */
async function timeStart(opts: ServerOptions, expectInit: false | 'demo image' | 'seed'): Promise<Timing> {
  const server = await startServer(opts);
  try {
    // Honesty check: a cold start must have built its schema (from an embedded image or by
    // migrating) and have the demo data (seeded now, or from the demo image), a warm one must
    // have done none of it.
    const out = server.output();
    const schema = out.includes('migrations applied') || out.includes(IMAGE) || out.includes(DEMO_IMAGE);
    const seeded = out.includes('demo data seeded');
    const initialised = expectInit === 'demo image' ? out.includes(DEMO_IMAGE) && !seeded : schema && seeded;
    const reinitialised = schema || seeded;
    if (expectInit ? !initialised : reinitialised)
      throw new Error(`${expectInit ? `cold (${expectInit})` : 'warm'} start did not behave as one:\n${out}`);
    if (expectInit === 'seed' && !opts.databaseUrl && !out.includes(IMAGE))
      progress('note: no prepared image (apps/api/dist/db-image), the cold embedded start ran initdb');
    return { ms: server.readyMs, cpuMs: server.readyCpuMs };
  } finally {
    await server.stop();
  }
}

function row(start: string, database: string, t: Timing[]): Row {
  const ms = t.map((x) => x.ms);
  const cpu = t.map((x) => x.cpuMs);
  return {
    start,
    database,
    runs: ms.length,
    'median ms': fmt(median(ms)),
    'min ms': fmt(Math.min(...ms)),
    'max ms': fmt(Math.max(...ms)),
    'server CPU ms (median)': cpu.every((c) => c > 0) ? fmt(median(cpu)) : '—',
  };
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const floor: Timing[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const t = {
    embeddedCold: [] as Timing[],
    embeddedSeed: [] as Timing[],
    embeddedWarm: [] as Timing[],
    pgCold: [] as Timing[],
    pgWarm: [] as Timing[],
  };
  for (let i = 1; i <= runs; i++) {
    progress(`cold-start run ${i}/${runs}`);
    floor.push({ ms: await loaderFloorMs(), cpuMs: 0 });

    const embedded = tempDir('embedded');
    t.embeddedCold.push(await timeStart({ dataDir: embedded.dir }, 'demo image'));
    t.embeddedWarm.push(await timeStart({ dataDir: embedded.dir }, false));
    const seeding = tempDir('embedded-seed');
    t.embeddedSeed.push(await timeStart({ dataDir: seeding.dir, env: { DEMO_IMAGE: 'off' } }, 'seed'));

    const db = await createBenchDatabase();
    const dir = tempDir('pg'); // holds only the generated session secret
    const opts: ServerOptions = { dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } };
    t.pgCold.push(await timeStart(opts, 'seed'));
    t.pgWarm.push(await timeStart(opts, false));
    // Removed only after the last run: on this discard-mounted disk, deleting a cluster's ~1,200
    // files (or dropping a database) just before a start slowed the next start's writes by up to
    // 1 s (an unpack of 0.2-0.4 s took 0.6-1.7 s), a cost of the benchmark's own cleanup that a
    // real first start does not pay.
    cleanups.push(
      () => embedded.remove(),
      () => seeding.remove(),
      () => db.drop(),
      () => dir.remove(),
    );
  }
  for (const cleanup of cleanups) await cleanup();
  return [
    row('floor: node, empty', '—', floor),
    row('cold (empty data dir; the demo image, seeded at build today)', 'embedded PGlite', t.embeddedCold),
    row('cold (empty data dir; DEMO_IMAGE=off: seeded at start, as on a later day)', 'embedded PGlite', t.embeddedSeed),
    row('warm (same data dir)', 'embedded PGlite', t.embeddedWarm),
    row('cold (empty database)', 'Postgres', t.pgCold),
    row('warm (same database)', 'Postgres', t.pgWarm),
  ];
}
