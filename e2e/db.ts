/** The e2e database: a fresh one per run on the test Postgres server (TEST_DATABASE_URL). */
import pg from 'pg';

const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const e2eDatabaseName = process.env.E2E_DATABASE ?? 'esm_e2e';

export function e2eDatabaseUrl(database = e2eDatabaseName): string {
  const u = new URL(admin);
  u.pathname = `/${database}`;
  return u.toString();
}

export async function recreateDatabase(): Promise<void> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${e2eDatabaseName}" WITH (FORCE)`);
  await c.query(`CREATE DATABASE "${e2eDatabaseName}"`);
  await c.end();
}

/** Runs SQL on the e2e database (to set up what a page must show, e.g. an expired session). */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  database = e2eDatabaseName,
): Promise<T[]> {
  const c = new pg.Client({ connectionString: e2eDatabaseUrl(database) });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}

/**
 * An access_log row (alias `l`) whose act happened in full: a refusal-free act logged OK, or a
 * view, print or download logged SENT whose delivery row says every byte went out (the server's
 * lib/access-log-delivery.ts deliveredSql).
 */
export const DELIVERED = `(l.outcome = 'OK' OR (l.outcome = 'SENT' AND EXISTS (SELECT 1 FROM access_delivery d WHERE d.access_log_id = l.id AND d.complete)))`;
