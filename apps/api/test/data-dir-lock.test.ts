/**
 * The embedded database is one process's: a second server, or `pnpm db:backup`, on a DATA_DIR a
 * running server holds stops with a message naming the holder and what to do, and the lock of a
 * server killed with SIGKILL does not stop the next start. Real processes: the bundle an operator
 * runs (dist/server.mjs) and the command as package.json runs it (tsx src/db/cli.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './free-port.ts';
import { holdDistFolder } from './dist-lock.ts';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSX = path.join(apiDir, 'node_modules/.bin/tsx');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'esm-lock-test-'));
const running: ChildProcess[] = [];
let releaseDist: (() => Promise<void>) | undefined;

// the bundle is this file's until its end: server.test.ts rebuilds it too
beforeAll(async () => {
  releaseDist = await holdDistFolder();
  execFileSync(process.execPath, ['scripts/build.mjs'], {
    cwd: apiDir,
    stdio: 'pipe',
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'false', DEMO_IMAGE: '' },
  });
}, 600_000);

afterAll(async () => {
  for (const p of running) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await releaseDist?.();
});

interface Proc {
  proc: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const full: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
  };
  for (const k of ['DATABASE_URL', 'SESSION_SECRET', 'MIGRATE_ON_START', 'STORAGE_DIR', 'DEMO_IMAGE']) delete full[k];
  const proc = spawn(cmd, args, { cwd: apiDir, env: { ...full, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, output: () => out, exited };
}

/** The server's state once it has settled: healthy (listening on the embedded database) or exited. */
async function settle(p: Proc, port: number): Promise<'healthy' | { code: number | null }> {
  for (let i = 0; i < 1200; i++) {
    if (p.proc.exitCode !== null || p.proc.signalCode !== null) return { code: p.proc.exitCode };
    try {
      if ((await fetch(`http://127.0.0.1:${port}/esm-server/health`)).status === 200) return 'healthy';
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`neither healthy nor exited:\n${p.output()}`);
}

async function server(): Promise<Proc & { port: number; state: Awaited<ReturnType<typeof settle>> }> {
  const port = await freePort();
  const p = run(process.execPath, ['dist/server.mjs'], { PORT: String(port) });
  return { ...p, port, state: await settle(p, port) };
}

describe('one process per embedded DATA_DIR', () => {
  it('a second server and pnpm db:backup are refused while one runs; after a SIGKILL the next start succeeds', async () => {
    const first = await server();
    expect(first.state, first.output()).toBe('healthy');

    const second = await server();
    // today: a second copy of the database answering writes
    expect(second.state, second.output()).toEqual({ code: 1 });
    expect(second.output()).toContain(
      `DATA_DIR ${dataDir} is in use by another process: the portal server (pid ${first.proc.pid} on host ${os.hostname()}`,
    );
    expect(second.output()).toMatch(/set DATABASE_URL to a PostgreSQL server/);
    // the first one is untouched
    expect((await fetch(`http://127.0.0.1:${first.port}/esm-server/health`)).status).toBe(200);

    const backup = run(TSX, ['src/db/cli.ts', 'backup', path.join(dataDir, 'never-written')], {});
    expect((await backup.exited).code, backup.output()).toBe(1);
    expect(backup.output()).toContain(`is in use by another process: the portal server (pid ${first.proc.pid}`);
    expect(existsSync(path.join(dataDir, 'never-written'))).toBe(false);

    first.proc.kill('SIGKILL');
    await first.exited;
    expect(existsSync(path.join(dataDir, 'portal.lock'))).toBe(true); // left behind by the killed process

    const third = await server();
    expect(third.state, third.output()).toBe('healthy');
    third.proc.kill('SIGTERM');
    expect(await third.exited, third.output()).toEqual({ code: 0, signal: null });
    expect(existsSync(path.join(dataDir, 'portal.lock'))).toBe(false);

    // nothing holds it now: the backup runs
    const done = run(TSX, ['src/db/cli.ts', 'backup', path.join(dataDir, 'bk')], {});
    expect((await done.exited).code, done.output()).toBe(0);
  }, 600_000);
});
