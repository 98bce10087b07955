/**
 * One fresh database per test run on the server named by TEST_DATABASE_URL: created, migrated
 * and seeded with the demo data here, handed to the tests as `inject('databaseUrl')`, dropped
 * at the end. Tests never touch a database someone else uses.
 */
import type { TestProject } from 'vitest/node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed.ts';
import { localStorage } from '../src/lib/storage.ts';
import { seedAgreement } from '../src/db/seed-agreement.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** The maintenance database URL (same server), for tests that need a database of their own. */
    serverUrl: string;
  }
}

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

export function withDatabase(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL || DEFAULT_SERVER;
  const name = `esm_test_${Date.now()}_${process.pid}`;
  await createDatabase(serverUrl, name);
  const databaseUrl = withDatabase(serverUrl, name);
  // the demo files' bytes: nothing reads them in tests (test files keep their own storage)
  const seedFiles = await mkdtemp(path.join(tmpdir(), 'esm-seed-files-'));
  try {
    const db = await openDatabase({ databaseUrl, dataDir: '' });
    try {
      await db.migrate();
      await seedDemo(db.prisma, localStorage(seedFiles));
      await seedAgreement(db.prisma);
    } finally {
      await db.close();
    }
  } catch (err) {
    await dropDatabase(serverUrl, name);
    await rm(seedFiles, { recursive: true, force: true });
    throw err;
  }
  project.provide('databaseUrl', databaseUrl);
  project.provide('serverUrl', serverUrl);
  return async () => {
    await dropDatabase(serverUrl, name);
    await rm(seedFiles, { recursive: true, force: true });
  };
}
