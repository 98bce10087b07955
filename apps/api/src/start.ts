/**
 * The server's start (server.ts, the entry, calls it): read config, open (and on first start
 * migrate and seed) the database, listen, and shut down gracefully on SIGINT/SIGTERM.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import type { EarlyEmbedded } from './db/embedded.ts';
import { seedDemo, seedReference } from './db/seed.ts';
import { buildApp } from './app.ts';
import { storageOf } from './lib/storage.ts';
import { claimStore } from './lib/storage/identity.ts';
import { startPhase } from './lib/start-trace.ts';
import pino from 'pino';
import { stopGracefully } from './lib/shutdown.ts';

/** `early`: the embedded database being unpacked and opened already (server.ts), if it is. */
export async function start(early?: EarlyEmbedded): Promise<void> {
  startPhase('modules loaded');

  const config = loadConfig();
  // the lines before the app exists, as JSON like every later one (a log collector parses them all)
  const log = pino({ level: config.logLevel });
  const db = await openDatabase(config, early);
  startPhase(db.restoredFromImage ? 'image unpacked, db opened' : 'db opened');
  const image = db.restoredFromImage;
  if (image?.demo)
    log.info(
      `database created from the prepared demo image (${image.migrations.length} migrations; the demo data of the build's seed at ${image.demo.seededAt})`,
    );
  else if (image) log.info(`database created from the prepared image (${image.migrations.length} migrations)`);
  if (config.migrateOnStart) {
    const applied = await db.migrate();
    if (applied.length) log.info({ migrations: applied }, `migrations applied: ${applied.join(', ')}`);
    startPhase('migration check');
  }
  const storage = await storageOf(config);
  // Before the seed writes a file and before listening: a store that belongs to another database
  // stops the start (the message names both and what to do).
  const claim = await claimStore(db.sql, storage, { adopt: config.storageAdopt });
  if (claim.marker === 'written')
    console.log(`file store ${storage.description} marked as database ${claim.databaseId}'s`);
  if (claim.marker === 'adopted')
    console.warn(
      `STORAGE_ADOPT: file store ${storage.description} now belongs to database ${claim.databaseId} (it was ${claim.previous?.databaseId}'s)`,
    );
  startPhase('file store checked');
  // Reference data (menu, first agreement) for every installation; seedDemo includes it.
  if (!config.seedDemo) await seedReference(db.prisma, undefined, db.sql);
  else if (await seedDemo(db.prisma, storage, db.sql)) log.info('demo data seeded (accounts demo2 … demo9)');
  startPhase('seed / reference data');

  const app = await buildApp({ config, db: db.prisma, dbKind: db.kind, sql: db.sql, storage });
  startPhase('app built');

  let closing = false;
  /** How long after listening Prisma's client is set up in the background (below). */
  const PRISMA_WARM_UP_DELAY_MS = 300;
  async function shutdown(signal: string) {
    if (closing) return;
    closing = true;
    app.log.info(
      { signal, graceSeconds: config.shutdownGraceMs / 1000 },
      'stopping: health answers 503, no new connections, requests in flight finish',
    );
    try {
      const { cut } = await stopGracefully(app, config.shutdownGraceMs);
      await db.close();
      if (cut) {
        app.log.error({ cut }, `stopped: ${cut} request(s) still running after SHUTDOWN_GRACE_SECONDS were cut`);
        process.exit(1);
      }
      app.log.info('stopped: every request finished');
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  startPhase('listening');
  // Prisma's client sets itself up on its first query (its query compiler, then the schema graph on
  // the first model query: ~150–250 ms of CPU, partly in one piece). A warm start no longer makes one
  // before listening (db/sql-runner.ts), so it is done here, in the background, instead of on the
  // first sign-in — shortly after listening, so that the first requests (a health check, the login
  // page's files) are not queued behind it. A request that needs Prisma earlier sets it up itself.
  // A failure here is the database's, which the requests that need it report.
  setTimeout(() => {
    if (closing) return;
    db.prisma
      .$queryRawUnsafe('SELECT 1')
      .then(() => db.prisma.user.findFirst({ where: { id: -1 }, select: { id: true } }))
      .then(
        () => startPhase('prisma ready'),
        (err: unknown) => app.log.warn({ err }, 'prisma warm-up failed'),
      );
  }, PRISMA_WARM_UP_DELAY_MS).unref();
  app.log.info(
    `ESM portal on http://localhost:${config.port}/esm (${db.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'Postgres'})`,
  );
}
