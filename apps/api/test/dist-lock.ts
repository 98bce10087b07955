/**
 * apps/api/dist is one folder per checkout. A test file that rebuilds it (scripts/build.mjs) and
 * then runs the bundle holds this lock from its build to its last test, so that another such file
 * running beside it does not delete and rewrite the bundle under its running server. The lock is a
 * Postgres advisory lock on the test server, named by the checkout's folder: waited for without
 * polling, and released by Postgres when the holder's connection ends, even if its process dies.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Waits for the checkout's dist folder; the answer releases it. */
export async function holdDistFolder(): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: inject('serverUrl') });
  await client.connect();
  await client.query('SELECT pg_advisory_lock(hashtext($1))', [`esm-test-dist:${apiDir}`]);
  return () => client.end();
}
