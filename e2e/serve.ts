/**
 * Playwright's web server: a fresh Postgres database, then the real server on it (migrated and
 * seeded with the demo accounts at start, exactly as an operator's first start).
 */
import { e2eDatabaseUrl, recreateDatabase } from './db.ts';

await recreateDatabase();
process.env.DATABASE_URL = e2eDatabaseUrl();
process.env.SEED_DEMO = 'true';
process.env.SESSION_SECRET ??= 'e2e-session-secret-that-is-long-enough-0123456789';
await import('../apps/api/src/server.ts');
