/**
 * Spawns the real entry point (`node dist/server.mjs`, the bundle `pnpm start` builds and runs) on a
 * free port of 127.0.0.1 and times it until GET /esm-server/health answers 200.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.ts';
import { processCpuMs } from './cpu.ts';
import { freePort } from '../../test/free-port.ts';

export { freePort };

export const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The bundled server, relative to apps/api (scripts/build.mjs writes it). */
export const SERVER_ENTRY = 'dist/server.mjs';
let built = false;

/**
 * Bundles the current source once per benchmark run, as `pnpm start` does before it starts — for
 * a first start on an empty data dir, as the benchmarks' own starts are: with the demo image
 * seeded today (db/prepare-images.ts builds it only for a start that can use it).
 */
export function ensureBuilt(): void {
  if (built) return;
  const empty = mkdtempSync(path.join(os.tmpdir(), 'esm-bench-build-'));
  const env = { ...process.env, DATA_DIR: empty, DATABASE_URL: '', SEED_DEMO: '', DEMO_IMAGE: '' };
  try {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: apiDir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  built = true;
}

/** A temp directory under the OS temp dir, removed at cleanup (or earlier by calling the result's `remove`). */
export function tempDir(prefix: string): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `esm-bench-${prefix}-`));
  const remove = onCleanup(`rm ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return { dir, remove };
}

export interface ServerOptions {
  dataDir: string;
  /** Absent: the embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** Extra environment (e.g. SEED_DEMO, LOG_LEVEL). */
  env?: Record<string, string>;
  /** Node/V8 flags before the entry point (e.g. --max-semi-space-size=2; not all are allowed in NODE_OPTIONS). */
  nodeArgs?: string[];
  /** How long to wait for health before giving up. */
  timeoutMs?: number;
  /** Another entry point instead of the bundle, with its loader flags (the list benchmarks' floor server). */
  entry?: string[];
}

export interface RunningServer {
  base: string;
  /** ms from spawn() to the first 200 from /esm-server/health. */
  readyMs: number;
  /** CPU time (user + system) the server process had used when it first answered 200. */
  readyCpuMs: number;
  proc: ChildProcess;
  /** The last 4000 characters the server printed (stdout and stderr). */
  output(): string;
  /** SIGTERM and wait for exit (SIGKILL after 20 s). */
  stop(): Promise<void>;
}

const POLL_MS = 10;

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: opts.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  for (const k of ['DATABASE_URL', 'SESSION_SECRET', 'STORAGE_DIR', 'MIGRATE_ON_START', 'DEMO_IMAGE']) delete env[k];
  Object.assign(env, opts.env);
  if (opts.databaseUrl) {
    env.DATABASE_URL = opts.databaseUrl;
    // a server on Postgres refuses to start without a shared secret (two processes must agree on it)
    env.SESSION_SECRET ??= 'esm-bench-session-secret-not-for-production';
  }
  const base = `http://127.0.0.1:${port}`;

  ensureBuilt(); // before the clock starts: the bundle is not part of a start
  const t0 = performance.now();
  // BENCH_SERVER_ENTRY: another bundle beside dist/ (e.g. a copy of the previous build as dist-base/),
  // to compare before and after in the same time window on a shared machine
  const entry = opts.entry ?? [process.env.BENCH_SERVER_ENTRY ?? SERVER_ENTRY];
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...entry], {
    cwd: apiDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Always drain the pipes (a full pipe would stall the server); keep the tail for error messages.
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const kill = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  const forget = onCleanup(`kill server pid ${proc.pid}`, kill);

  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const timer = setTimeout(kill, 20_000);
      await exited;
      clearTimeout(timer);
    }
    await forget();
  };

  const deadline = t0 + (opts.timeoutMs ?? 90_000);
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) {
      await forget();
      throw new Error(`server exited early (${proc.exitCode ?? proc.signalCode}):\n${tail}`);
    }
    try {
      const res = await fetch(`${base}/esm-server/health`);
      await res.arrayBuffer();
      if (res.status === 200)
        return {
          base,
          readyMs: performance.now() - t0,
          readyCpuMs: processCpuMs(proc.pid!),
          proc,
          output: () => tail,
          stop,
        };
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`server not healthy within ${opts.timeoutMs ?? 90_000} ms:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** ms from spawn() to exit of a node process with nothing to do: the floor under any start. */
export async function loaderFloorMs(): Promise<number> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, ['--eval', '0'], { cwd: apiDir, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
  if (code !== 0) throw new Error(`node exited ${code}`);
  return performance.now() - t0;
}
