/**
 * Throwaway databases on the local Postgres server: each benchmark creates `esm_bench_<ts>_<n>`
 * and drops it afterwards (also on failure, through cleanup.ts).
 */
import pg from 'pg';
import { onCleanup } from './cleanup.ts';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The maintenance URL (BENCH_DATABASE_URL, else the local server). Benchmarks load only the local machine. */
export function serverUrl(): string {
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_SERVER;
  const host = new URL(url).hostname;
  if (!LOCAL_HOSTS.has(host)) throw new Error(`BENCH_DATABASE_URL must point at this machine (127.0.0.1), not ${host}`);
  return url;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function postgresVersion(): Promise<string> {
  return admin(async (c) => (await c.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v);
}

let seq = 0;
const stamp = Date.now();

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database and registers its drop. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `esm_bench_${stamp}_${process.pid}_${++seq}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  const drop = onCleanup(`drop database ${name}`, () =>
    admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  );
  return { name, url: url.toString(), drop };
}
