/**
 * CPU time spent per operation, which a busy neighbour on the machine disturbs far less than
 * throughput: user+system time of a process (from /proc/<pid>/stat, 10 ms ticks) and of the
 * Postgres backends serving one database.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICK_MS = 10; // CLK_TCK is 100 on Linux

/** utime + stime of a process in ms; 0 if it is gone. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from #3 on
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS; // #14 utime, #15 stime
  } catch {
    return 0;
  }
}

/** CPU of this process in ms (user + system). */
export const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export interface CpuMeter {
  start(): Promise<void>;
  /** ms of CPU since start: `app` (the process talking to the database) and `db` (its Postgres backends). */
  stop(): Promise<{ app: number; db?: number }>;
}

/**
 * Meters `app` (a pid, or 'self' for this process) and, with `database` (URL + name), the
 * Postgres backends connected to that database (pids from pg_stat_activity at start and stop).
 */
export function cpuMeter(app: number | 'self', database?: { url: string; name: string }): CpuMeter {
  const appMs = () => (app === 'self' ? selfCpuMs() : processCpuMs(app));
  const backends = async (): Promise<number[]> => {
    if (!database) return [];
    const c = new pg.Client({ connectionString: database.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database.name],
      );
      return rows.map((r) => r.pid);
    } finally {
      await c.end();
    }
  };
  let app0 = 0;
  let db0 = new Map<number, number>();
  return {
    async start() {
      db0 = new Map((await backends()).map((pid) => [pid, processCpuMs(pid)]));
      app0 = appMs();
    },
    async stop() {
      const app1 = appMs();
      if (!database) return { app: app1 - app0 };
      // A backend that appeared meanwhile counts from 0; one that left took its time with it
      // (the pools here keep their connections, so that does not happen in practice).
      const pids = new Set([...db0.keys(), ...(await backends())]);
      let db = 0;
      for (const pid of pids) db += Math.max(0, processCpuMs(pid) - (db0.get(pid) ?? 0));
      return { app: app1 - app0, db };
    },
  };
}

/**
 * CPU ms so far of each postgres process working for `database`: its client backends and
 * autovacuum workers (process titles in /proc/<pid>/cmdline). Left out: other databases'
 * backends, and the server's shared processes (WAL writer, checkpointer, background writer),
 * which on a shared machine mostly work for someone else's writes — a few % of a core at most
 * for the api's own writes (log rows, sessions, confirmations).
 */
export function postgresCpuByPid(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      // "postgres: [<cluster>: ]<user> <db> <host>(<port>) <state>" or "postgres: [<cluster>: ]autovacuum worker <db>"
      // (Debian's clusters name themselves: "postgres: 15/main: postgres esm_bench_big 127.0.0.1(5432) idle")
      const db = /^postgres: (?:\S+: )?(?:autovacuum worker (\S+)|\S+ (\S+) \S+\(\d+\))/
        .exec(title)
        ?.slice(1)
        .find(Boolean);
      if (db === database) out.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU ms between two postgresCpuByPid readings: a process that appeared counts from 0; one that exited took its time with it. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, t] of after) ms += Math.max(0, t - (before.get(pid) ?? 0));
  return ms;
}

/** Busy and total CPU ms of the whole machine, all cores (first line of /proc/stat). */
export function machineCpuMs(): { busy: number; total: number } {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const n = ticks.map(Number);
  const idle = n[3]! + n[4]!; // idle + iowait
  const total = n.slice(0, 8).reduce((s, x) => s + x, 0); // user … steal (guest is inside user)
  return { busy: (total - idle) * TICK_MS, total: total * TICK_MS };
}
