/**
 * What several api processes on one Postgres database need at start: the same session secret
 * (refused without one), and the demo seed done once when they start together on an empty
 * database — each process here is its own pool of connections, as a process is.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { DEMO_SUPPLIERS, DEMO_USERS, seedDemo } from '../src/db/seed.ts';
import { localStorage } from '../src/lib/storage.ts';
import { MENU } from '../src/db/menu-data.ts';
import { createDatabase, dropDatabase, withDatabase } from './databases.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

describe('SESSION_SECRET', () => {
  it('DATABASE_URL without SESSION_SECRET stops the start, naming the variable; the embedded database makes one', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'esm-secret-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    expect(() => loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1/esm', DATA_DIR: dataDir })).toThrow(
      /^SESSION_SECRET is not set: with DATABASE_URL every api process must use the same secret/,
    );
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://postgres@127.0.0.1/esm',
        DATA_DIR: dataDir,
        SESSION_SECRET: 's'.repeat(32),
      }).sessionSecret,
    ).toBe('s'.repeat(32));
    const embedded = loadConfig({ DATA_DIR: dataDir });
    expect(embedded.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path.join(dataDir, 'session-secret'), 'utf8')).toBe(embedded.sessionSecret);
  });
});

describe('the demo seed', () => {
  it('three processes seeding an empty database at once: all succeed, one seeds, the data is there once', async () => {
    const serverUrl = inject('serverUrl');
    const name = `esm_seed_race_${Date.now()}_${process.pid}`;
    await createDatabase(serverUrl, name);
    cleanup.push(() => dropDatabase(serverUrl, name));
    const url = withDatabase(serverUrl, name);
    const files = mkdtempSync(path.join(os.tmpdir(), 'esm-seed-race-'));
    cleanup.push(() => rmSync(files, { recursive: true, force: true }));

    const dbs: Database[] = [];
    for (let i = 0; i < 3; i++) dbs.push(await openDatabase({ databaseUrl: url, dataDir: '' }));
    cleanup.push(async () => {
      for (const db of dbs) await db.close();
    });
    await Promise.all(dbs.map((db) => db.migrate()));
    const results = await Promise.allSettled(dbs.map((db) => seedDemo(db.prisma, localStorage(files), db.sql)));
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
    expect(results.map((r) => (r as PromiseFulfilledResult<boolean>).value).sort()).toEqual([false, false, true]);

    const count = async (table: string) =>
      Number((await dbs[0]!.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
    expect(await count('supplier')).toBe(DEMO_SUPPLIERS.length);
    const accounts = DEMO_USERS.map((u) => `'${u.account}'`).join(',');
    expect(await count(`app_user WHERE account IN (${accounts})`)).toBe(DEMO_USERS.length);
    expect(await count('menu_entry')).toBe(MENU.length);
    expect(await count('keepsecret_agreement')).toBe(1);
  }, 300_000);
});
