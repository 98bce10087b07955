/**
 * The server a browser tool drives: `BASE_URL` when one is running already, else the real bundle
 * started on a fresh Postgres database with the demo data, removed again by `stop`.
 */
import { createBenchDatabase } from './postgres.ts';
import { startServer, tempDir } from './server.ts';

export async function demoServer(name: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const given = process.env.BASE_URL;
  if (given) return { base: given, stop: async () => {} };
  const db = await createBenchDatabase();
  const dir = tempDir(name);
  const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
  return {
    base: server.base,
    stop: async () => {
      await server.stop();
      await db.drop();
      await dir.remove();
    },
  };
}
