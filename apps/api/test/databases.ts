/**
 * Test databases on the Postgres server named by TEST_DATABASE_URL. The run's demo-seeded template
 * is built once (test/global-setup.ts); every test file works in a copy of its own
 * (test/file-database.ts), so files run side by side without seeing each other's rows.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database name no other test, worker or concurrent run on the same server uses:
 * `<prefix>_<time>_<pid>_<random>` (Postgres keeps 63 characters of it).
 */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function createDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, async (c) => void (await c.query(`CREATE DATABASE "${name}"`)));
}

export function dropDatabase(serverUrl: string, name: string): Promise<void> {
  return onServer(serverUrl, async (c) => void (await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
}

/**
 * Closes the template to connections, so that copies of it can be made at any time: the copy
 * fails while anyone is connected to the source, and nothing may connect to it by mistake.
 */
export function sealTemplate(serverUrl: string, template: string): Promise<void> {
  return onServer(
    serverUrl,
    async (c) => void (await c.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`)),
  );
}

/**
 * `name` as a copy of `template` (CREATE DATABASE … TEMPLATE: a file copy on the server, no
 * migration or seed replayed). Copies of one template may be made side by side. The template must
 * have no connection open (see `sealTemplate`); an autovacuum worker still in it is asked to leave
 * by Postgres itself.
 */
export function cloneDatabase(serverUrl: string, template: string, name: string): Promise<void> {
  return onServer(serverUrl, async (c) => void (await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)));
}

let fileDatabase: string | undefined;

/** Records the database of the running test file (test/file-database.ts, before the file loads). */
export function setFileDatabaseUrl(url: string): void {
  fileDatabase = url;
}

/** The URL of the running test file's own database: a copy of the demo-seeded template. */
export function testDatabaseUrl(): string {
  if (!fileDatabase)
    throw new Error('no test database: test/file-database.ts is a setupFiles entry of the api project');
  return fileDatabase;
}
