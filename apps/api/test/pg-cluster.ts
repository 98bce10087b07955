/**
 * A throwaway PostgreSQL cluster of a test's own (initdb + pg_ctl from Debian's server package),
 * on a free port under a temporary folder, so a test may stop and start it — a database restart
 * or failover — without touching the server the other tests share. As root, the server runs as
 * the `postgres` OS user (Postgres refuses to run as root).
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

/** The newest installed server's bin folder (/usr/lib/postgresql/<major>/bin), or PG_BIN. */
export function postgresBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((d) => existsSync(path.join(root, d, 'bin/pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? path.join(root, majors[0], 'bin') : null;
}

export interface Cluster {
  port: number;
  /** postgres://postgres@127.0.0.1:<port>/<db> */
  url(db?: string): string;
  start(): void;
  /** `mode`: pg_ctl's shutdown mode — fast (a restart) or immediate (a crash). */
  stop(mode?: 'fast' | 'immediate'): void;
  remove(): void;
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('no PostgreSQL server binaries (install postgresql, or set PG_BIN)');
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'esm-pg-'));
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const data = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const file = path.join(bin, cmd);
    execFileSync(asRoot ? 'runuser' : file, asRoot ? ['-u', 'postgres', '--', file, ...args] : args, {
      stdio: 'pipe',
      cwd: dir,
    });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_connections=50`;
  const cluster: Cluster = {
    port,
    url: (db = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${db}`,
    start: () => run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '120', 'start']),
    stop: (mode = 'fast') => run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '120', 'stop']),
    remove() {
      try {
        cluster.stop('immediate');
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  cluster.start();
  return cluster;
}
