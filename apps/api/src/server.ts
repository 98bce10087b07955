/**
 * The only entry point: read config, open (and on first start migrate and seed) the database,
 * listen, and shut down gracefully on SIGINT/SIGTERM.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { seedDemo, seedReference } from './db/seed.ts';
import { buildApp } from './app.ts';
import { localStorage } from './lib/storage.ts';
import { startPhase } from './lib/start-trace.ts';

startPhase('modules loaded');

const config = loadConfig();
const db = await openDatabase(config);
startPhase(db.restoredFromImage ? 'image unpacked, db opened' : 'db opened');
if (db.restoredFromImage) console.log(`database created from the prepared image (${db.restoredFromImage.migrations.length} migrations)`);
if (config.migrateOnStart) {
  const applied = await db.migrate();
  if (applied.length) console.log(`migrations applied: ${applied.join(', ')}`);
  startPhase('migration check');
}
const storage = localStorage(config.storageDir);
// Reference data (menu, first agreement) for every installation; seedDemo includes it.
if (!config.seedDemo) await seedReference(db.prisma);
else if (await seedDemo(db.prisma, storage)) console.log('demo data seeded (accounts demo2 … demo9)');
startPhase('seed / reference data');

const app = await buildApp({ config, db: db.prisma, dbKind: db.kind, storage });
startPhase('app built');

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close(); // stops accepting, waits for in-flight requests
    await db.close();
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
app.log.info(`ESM portal on http://localhost:${config.port}/esm (${db.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'Postgres'})`);
