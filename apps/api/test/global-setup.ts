/**
 * The run's demo-seeded template on the server named by TEST_DATABASE_URL: created, migrated and
 * seeded with the demo data (demo2 … demo9, the agreement) once here, then closed to connections.
 * Each test file works in a copy of it (test/file-database.ts), so files run in parallel and never
 * see each other's rows. Dropped at the end of the run.
 */
import type { TestProject } from 'vitest/node';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/database.ts';
import { seedDemo } from '../src/db/seed.ts';
import { localStorage } from '../src/lib/storage.ts';
import { seedAgreement } from '../src/db/seed-agreement.ts';
import { createDatabase, dropDatabase, sealTemplate, uniqueDatabaseName, withDatabase } from './databases.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The seeded template's name; a test file's own database is a copy (`testDatabaseUrl()`). */
    templateDatabase: string;
    /** The maintenance database URL (same server), for tests that need a database of their own. */
    serverUrl: string;
  }
}

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL || DEFAULT_SERVER;
  const name = uniqueDatabaseName('esm_test_tpl');
  await createDatabase(serverUrl, name);
  // the demo files' bytes: nothing reads them in tests (test files keep their own storage)
  const seedFiles = await mkdtemp(path.join(tmpdir(), 'esm-seed-files-'));
  try {
    const db = await openDatabase({ databaseUrl: withDatabase(serverUrl, name), dataDir: '' });
    try {
      await db.migrate();
      await seedDemo(db.prisma, localStorage(seedFiles));
      await seedAgreement(db.prisma);
    } finally {
      await db.close();
    }
    await sealTemplate(serverUrl, name);
  } catch (err) {
    await dropDatabase(serverUrl, name);
    throw err;
  } finally {
    await rm(seedFiles, { recursive: true, force: true });
  }
  project.provide('templateDatabase', name);
  project.provide('serverUrl', serverUrl);
  return () => dropDatabase(serverUrl, name);
}
