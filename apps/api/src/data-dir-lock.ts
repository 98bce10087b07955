/**
 * The embedded database belongs to one process. PGlite has no lock of its own: two processes on
 * one DATA_DIR both open it, each with its own copy of the database in memory, and both answer
 * writes (two uploads got the same file id; after a restart one of them was gone). So every
 * process that opens the embedded database — the server, `pnpm db:backup`, `db:restore`,
 * `db:migrate`, `db:seed` — first takes DATA_DIR/portal.lock, and one that finds it held by a
 * running process stops, saying which one and what to do.
 *
 * The lock is a file created exclusively (O_EXCL) holding its owner: pid, host name, boot id and
 * the process's start time. It is removed when the process exits (normally or on an uncaught
 * error). A process killed with SIGKILL, or a machine that lost power, leaves it behind, and such
 * a stale lock never stops a restart:
 *   - on the same host (same host name and boot id): stale when the pid is not running, is our
 *     own (a container's pid 1 again), or now belongs to a process started at another time (a
 *     reused pid) — known at once, without waiting;
 *   - same host name after a reboot (another boot id): stale;
 *   - another host name (another container on a shared volume, a recreated container), where
 *     the pid means nothing: the owner touches the file every HEARTBEAT_MS, and a file not
 *     touched for STALE_MS is stale. A process that finds such a lock fresh waits for it to go
 *     stale, so a restart after a crash is only delayed, and a second live replica is refused.
 * Why not an mtime-only lock (proper-lockfile): its holder loses the lock whenever its event loop
 * stalls past the stale period, and PGlite runs every query on the main thread; and a restart
 * right after a crash would always wait out the stale period. Why not flock(2): Node has no
 * binding for it without a native add-on, which this project does not build.
 *
 * Only node's own modules: server.ts takes the lock before it loads anything else.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How often the owner touches the lock file, and when another host's untouched lock is stale. */
export const HEARTBEAT_MS = 5_000;
export const STALE_MS = 30_000;

export const lockFileOf = (dataDir: string): string => path.join(dataDir, 'portal.lock');

export interface LockOwner {
  pid: number;
  hostname: string;
  bootId: string;
  /** The process's start time as the kernel counts it (/proc/<pid>/stat), '' where unknown. */
  procStart: string;
  startedAt: string;
  /** What holds it: "the portal server", "pnpm db:backup", … */
  command: string;
  /** Tells two owners with the same pid apart (a reused pid, our own earlier run). */
  nonce: string;
}

const readText = (file: string): string => {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
};

const bootId = (): string => readText('/proc/sys/kernel/random/boot_id');

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
function procStartOf(pid: number): string {
  const stat = readText(`/proc/${pid}/stat`);
  // the command name (field 2) is in parentheses and may hold spaces: count from its end
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return rest[19] ?? '';
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by another user
  }
}

/** Whether the owner that wrote `owner` cannot be running any more. `mtimeMs`: the file's last touch. */
function isStale(owner: LockOwner, mtimeMs: number): boolean {
  if (owner.hostname !== os.hostname()) return Date.now() - mtimeMs > STALE_MS;
  if (owner.bootId !== bootId()) return true;
  if (owner.pid === process.pid) return true;
  if (!running(owner.pid)) return true;
  const start = procStartOf(owner.pid);
  return owner.procStart !== '' && start !== '' && start !== owner.procStart;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly owner: LockOwner,
    dataDir: string,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another process: ${owner.command} (pid ${owner.pid} on host ${owner.hostname}, started ${owner.startedAt}). ` +
        'The embedded database belongs to one process at a time: stop that process first, or, to run several api processes, ' +
        `set DATABASE_URL to a PostgreSQL server (with SESSION_SECRET). The lock is ${lockFileOf(dataDir)}; it goes away when that process ends.`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

const parse = (text: string): LockOwner | null => {
  try {
    const o = JSON.parse(text) as LockOwner;
    return typeof o.pid === 'number' && typeof o.hostname === 'string' ? o : null;
  } catch {
    return null;
  }
};

/**
 * Takes the lock on `dataDir` for this process's life (created if absent), or throws
 * DataDirLockedError naming the process that holds it. A lock of another host whose heartbeat
 * is fresh is waited for up to `waitMs` (default: until it would go stale) before giving up.
 */
export async function lockDataDir(
  dataDir: string,
  command: string,
  opts: { waitMs?: number } = {},
): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFileOf(dataDir);
  const me: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    bootId: bootId(),
    procStart: procStartOf(process.pid),
    startedAt: new Date().toISOString(),
    command,
    nonce: randomBytes(8).toString('hex'),
  };
  const text = `${JSON.stringify(me)}\n`;
  const deadline = Date.now() + (opts.waitMs ?? STALE_MS + HEARTBEAT_MS);
  for (;;) {
    try {
      const fd = openSync(file, 'wx', 0o644);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return hold(file, text);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let seen: string;
    let mtimeMs: number;
    try {
      seen = readFileSync(file, 'utf8');
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      continue; // removed meanwhile: try again
    }
    const owner = parse(seen);
    // An unreadable file is one whose writer died between creating and writing it (a few bytes):
    // judged by its age like another host's.
    const stale = owner ? isStale(owner, mtimeMs) : Date.now() - mtimeMs > HEARTBEAT_MS;
    if (stale) {
      takeOver(file, seen);
      continue;
    }
    if (owner && owner.hostname !== me.hostname && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, HEARTBEAT_MS / 2));
      continue;
    }
    throw new DataDirLockedError(
      file,
      owner ?? { ...me, pid: 0, hostname: '?', command: 'an unknown process', startedAt: '?' },
      dataDir,
    );
  }
}

/**
 * Removes a stale lock `seen`, safe against another process doing the same at the same moment:
 * the file is moved aside (atomic; of two movers only one gets it), and if what was moved is not
 * the stale lock but one another process has just taken, it is put back.
 */
function takeOver(file: string, seen: string): void {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // gone already: someone else took it over
  }
  if (readText(aside) !== seen.trim()) {
    try {
      linkSync(aside, file);
    } catch {
      // a third process took the lock meanwhile; it holds it now
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function hold(file: string, text: string): DataDirLock {
  const ours = () => readText(file) === text.trim();
  const beat = setInterval(() => {
    try {
      const now = new Date();
      utimesSync(file, now, now);
    } catch {
      // the folder went away; nothing to keep alive
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(beat);
    process.off('exit', release);
    try {
      if (ours()) unlinkSync(file);
    } catch {
      // already gone
    }
  };
  // 'exit' runs on process.exit and after an uncaught error; SIGKILL leaves a stale lock (above)
  process.on('exit', release);
  return { file, release };
}
