/**
 * The server's start with an S3 bucket (the source entry, on the run's Postgres database and an
 * s3rver bucket): the first start marks the store as this database's and is ready; a store marked
 * for another database stops the start, naming both, unless STORAGE_ADOPT; incomplete S3 settings
 * stop it naming the variable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Storage } from '../src/lib/storage/s3.ts';
import { startS3Server, type TestS3Server } from './s3-server.ts';
import { SESSION_SECRET, testDatabaseUrl } from './helpers.ts';
import { freePort } from './free-port.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const running: ChildProcess[] = [];
let s3: TestS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await s3.remove();
});

/** Starts the server; answers once it listens (its health answers) or once it has exited. */
async function start(env: Record<string, string>) {
  const port = await freePort();
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: apiDir,
    env: {
      ...process.env,
      DATABASE_URL: testDatabaseUrl(),
      SESSION_SECRET,
      SEED_DEMO: 'false',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (gone) return { exitCode: await exited, output: out, base, stop: async () => {} };
    const res = await fetch(`${base}/esm-server/health/live`).catch(() => null);
    if (res?.ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    exitCode: null as number | null,
    output: out,
    base,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function databaseId(): Promise<string> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query<{ id: string }>('SELECT database_id::text AS id FROM database_identity')).rows[0]!.id;
  } finally {
    await client.end();
  }
}

describe('a start on an S3 bucket', () => {
  it('marks the store at the first start and is ready; another database refuses to start, unless STORAGE_ADOPT', async () => {
    const settings = await s3.newBucket(`start-${randomUUID().slice(0, 8)}`);
    const env = { ...s3.env, S3_BUCKET: settings.bucket };
    const bucket = s3Storage(settings);

    const first = await start(env);
    expect(first.exitCode, first.output).toBe(null);
    const ready = await fetch(`${first.base}/esm-server/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', database: 'postgres', storage: 'ok' });
    await first.stop();
    const ours = await databaseId();
    expect(await bucket.readMarker()).toMatchObject({ databaseId: ours });

    // the bucket now belongs to another database (this one a restored copy pointed at it)
    const theirs = randomUUID();
    await bucket.writeMarker({ databaseId: theirs, writtenAt: '2026-11-01T00:00:00.000Z', host: 'prod-api-1' });
    const refused = await start(env);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.exitCode).not.toBe(null);
    expect(refused.output).toContain(`belongs to database ${theirs}`);
    expect(refused.output).toContain(`this database is ${ours}`);
    expect(refused.output).toContain('STORAGE_ADOPT=true');
    expect((await bucket.readMarker())?.databaseId).toBe(theirs);

    const adopted = await start({ ...env, STORAGE_ADOPT: 'true' });
    expect(adopted.exitCode, adopted.output).toBe(null);
    await adopted.stop();
    expect(await bucket.readMarker()).toMatchObject({ databaseId: ours, adoptedFrom: theirs });
  }, 300_000); // three starts from source (tsx) on a shared machine

  it('incomplete S3 settings stop the start naming the missing variable', async () => {
    const noBucket = await start({
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
    expect(noBucket.exitCode).not.toBe(0);
    expect(noBucket.output).toContain('S3_BUCKET is not set');
    const noSecret = await start({ S3_BUCKET: 'esm', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'S3RVER' });
    expect(noSecret.exitCode).not.toBe(0);
    expect(noSecret.output).toContain('S3_SECRET_ACCESS_KEY is not set');
  }, 200_000);
});
