/**
 * The real entry point as `pnpm start` runs it — `src/server.ts` bundled into `dist/server.mjs`
 * (scripts/build.mjs) on plain node: with no DATABASE_URL it starts on the
 * embedded PGlite under DATA_DIR, creates it with the demo data (from the build's demo image, or
 * migrated and seeded), serves over HTTP, keeps sessions and
 * the session secret across a restart, and exits 0 on SIGTERM.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { holdDistFolder } from './dist-lock.ts';
import { API_BASE, menuApi, sessionApi, type EndpointDef } from '@esm/contracts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'esm-server-test-'));
const running: ChildProcess[] = [];
let releaseDist: (() => Promise<void>) | undefined;

// the bundle of the code under test (~0.1 s), not a stale one from an earlier build; the bundle is
// this file's until its end (data-dir-lock.test.ts rebuilds it too), so the wait may be that file's run
beforeAll(async () => {
  releaseDist = await holdDistFolder();
  // built for the start below (its empty DATA_DIR): with the demo image, seeded today
  execFileSync(process.execPath, ['scripts/build.mjs'], {
    cwd: apiDir,
    stdio: 'pipe',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '', DEMO_IMAGE: '' },
  });
}, 600_000);

afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await releaseDist?.();
});

interface Server {
  proc: ChildProcess;
  base: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function start(dir = dataDir, extra: NodeJS.ProcessEnv = {}): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  }; // info: the start-up lines asserted below
  for (const k of ['DATABASE_URL', 'SESSION_SECRET', 'SEED_DEMO', 'MIGRATE_ON_START', 'STORAGE_DIR', 'DEMO_IMAGE'])
    delete env[k];
  Object.assign(env, extra);
  const proc = spawn(process.execPath, ['--max-semi-space-size=4', '--heap-growing-percent=50', 'dist/server.mjs'], {
    cwd: apiDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${base}/esm-server/health`);
      if (res.status === 200) {
        expect(await res.json()).toEqual({ status: 'ok', database: 'embedded', storage: 'ok' });
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not healthy within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { proc, base, output: () => out, exited };
}

async function stop(s: Server) {
  s.proc.kill('SIGTERM');
  const result = await Promise.race([s.exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000))]);
  expect(result, s.output()).toEqual({ code: 0, signal: null });
}

const postJson = (base: string, endpoint: EndpointDef, body: unknown, cookie?: string) =>
  fetch(`${base}${API_BASE}/${endpoint.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

describe('embedded server', () => {
  let cookie = '';

  it('starts on an empty data dir with the demo data, serves a login, and stops cleanly on SIGTERM', async () => {
    const s = await start();
    try {
      // the build's demo image (seeded today), unpacked in the entry's worker thread (server.ts)
      // while the modules load: nothing left to seed
      expect(s.output()).toMatch(/database created from the prepared demo image/);
      expect(s.output()).not.toMatch(/demo data seeded/);
      // start-up lines are JSON like every later line (a log collector parses them all)
      const startLine = s
        .output()
        .split('\n')
        .find((l) => l.includes('database created from the prepared demo image'))!;
      expect(JSON.parse(startLine)).toMatchObject({
        level: 30,
        msg: expect.stringMatching(/^database created from the prepared demo image/),
      });
      // its stored files (the demo drawings and attachments) went into the data dir's file store
      const demo = JSON.parse(readFileSync(path.join(apiDir, 'dist/db-image-demo/manifest.json'), 'utf8')) as {
        demo: { files: string[] };
      };
      expect(demo.demo.files.length).toBeGreaterThan(10);
      for (const sha of demo.demo.files)
        expect(existsSync(path.join(dataDir, 'files', sha.slice(0, 2), sha.slice(2, 4), sha))).toBe(true);
      const res = await postJson(s.base, sessionApi.login, { account: 'demo3', password: 'Esm@2026' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, code: '10000000', data: { account: 'demo3', type: 3 } });
      const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('esm_sid='));
      expect(setCookie).toBeDefined();
      cookie = setCookie!.split(';')[0];
      const cur = await postJson(s.base, sessionApi.current, {}, cookie);
      expect(await cur.json()).toMatchObject({ code: '0', data: { name: '李娜' } });
      // The embedded database and the generated session secret live in the data dir.
      expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(true);
      const secret = path.join(dataDir, 'session-secret');
      expect(existsSync(secret)).toBe(true);
      expect(statSync(secret).mode & 0o077).toBe(0);
    } finally {
      await stop(s);
    }
  }, 120_000);

  it('with DEMO_IMAGE=off (as on a later day than the build) it takes the reference image and seeds', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'esm-server-test-seed-'));
    const s = await start(dir, { DEMO_IMAGE: 'off' });
    try {
      expect(s.output()).toMatch(/database created from the prepared image/);
      expect(s.output()).toMatch(/demo data seeded/);
      const res = await postJson(s.base, sessionApi.login, { account: 'demo2', password: 'Esm@2026' });
      expect(await res.json()).toMatchObject({ code: '10000000', data: { account: 'demo2' } });
    } finally {
      await stop(s);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('restarts on the same data dir without re-seeding, and the earlier session still works', async () => {
    expect(cookie).not.toBe('');
    const s = await start();
    try {
      expect(s.output()).not.toMatch(/demo data seeded/);
      expect(s.output()).not.toMatch(/migrations applied/);
      const cur = await postJson(s.base, sessionApi.current, {}, cookie);
      expect(cur.status).toBe(200);
      expect(await cur.json()).toMatchObject({ code: '0', data: { account: 'demo3' } });
      const menu = await postJson(s.base, menuApi.roleFunction, {}, cookie);
      expect(menu.status).toBe(200);
    } finally {
      await stop(s);
    }
  }, 120_000);
});
