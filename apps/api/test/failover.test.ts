/**
 * The database restarting or failing over: the api answers 503 meanwhile (never 500) and 200
 * again as soon as the database accepts connections — a restart of a Postgres cluster of the
 * test's own (test/pg-cluster.ts; the shared server is never restarted), and a server gone
 * silent (connects unanswered, as while a host or container restarts or an address moves to a
 * standby) through a TCP relay of the test's own. States are waited for, not durations; the one
 * duration asserted is the pool's own give-up time on a connect nobody answers.
 */
import { menuApi, sessionApi } from '@esm/contracts';
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, POOL_SETTINGS, type Database } from '../src/db/database.ts';
import { buildTestApp, login, type TestApp, callApi, testDatabaseUrl } from './helpers.ts';
import { postgresBin, startCluster, type Cluster } from './pg-cluster.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
});

async function appOn(url: string): Promise<{ t: TestApp; cookie: string }> {
  const db: Database = await openDatabase({ databaseUrl: url, dataDir: '' });
  const t = await buildTestApp({ db });
  cleanup.push(async () => {
    await t.close();
    await db.close();
  });
  return { t, cookie: await login(t.app, 'demo3') };
}

const roleFunction = (t: TestApp, cookie: string) => callApi(t.app, menuApi.roleFunction, {}, cookie);
let address = 0;
const signIn = (t: TestApp) =>
  callApi(t.app, sessionApi.login, { account: 'demo3', password: 'Esm@2026' }, undefined, {
    remoteAddress: `10.72.0.${(address++ % 250) + 1}`,
  });

/** Requests from `workers` loops (reads and sign-ins, which run transactions) until stopped; every status seen. */
function traffic(t: TestApp, cookie: string, workers = 6) {
  let stop = false;
  const statuses: number[] = [];
  const done = Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      while (!stop) {
        statuses.push((await (w % 2 ? signIn(t) : roleFunction(t, cookie))).statusCode);
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  return {
    statuses,
    async stop() {
      stop = true;
      await done;
    },
  };
}

describe('a Postgres restart', () => {
  let cluster: Cluster;
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    cluster = await startCluster();
    cleanup.push(() => cluster.remove());
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE esm');
    await admin.end();
    // the run's migrated and seeded database, copied into the cluster
    const bin = postgresBin()!;
    const dump = execFileSync(path.join(bin, 'pg_dump'), ['--format=custom', '--no-owner', testDatabaseUrl()], {
      maxBuffer: 1 << 30,
    });
    execFileSync(path.join(bin, 'pg_restore'), ['--no-owner', '--exit-on-error', '-d', cluster.url('esm')], {
      input: dump,
    });
    ({ t, cookie } = await appOn(cluster.url('esm')));
  }, 300_000);

  for (const mode of ['fast', 'immediate'] as const) {
    it(`stopped (${mode === 'fast' ? 'a restart' : 'a crash'}) under traffic: 503 meanwhile, and the first request once it is back reaches it`, async () => {
      const load = traffic(t, cookie);
      // the pool busy with connections in use and idle when the server goes
      while (load.statuses.filter((s) => s === 200).length < 6) await new Promise((r) => setTimeout(r, 20));
      cluster.stop(mode);
      const during = load.statuses.length;
      while (load.statuses.length < during + 6) await new Promise((r) => setTimeout(r, 20));
      cluster.start(); // returns once the server accepts connections
      await load.stop();
      expect(
        load.statuses.every((s) => s === 200 || s === 503),
        load.statuses.join(','),
      ).toBe(true);
      expect(load.statuses.slice(during)).toContain(503);
      // no dead connection kept in the pool: the first request after the return is served
      const first = await roleFunction(t, cookie);
      expect(first.statusCode, first.body).toBe(200);
      expect((await signIn(t)).statusCode).toBe(200);
    }, 300_000);
  }
});

/** A TCP relay to the test server that can go silent: new connections accepted and never answered, open ones cut. */
class SilentRelay {
  private readonly server: net.Server;
  private readonly open = new Set<net.Socket>();
  silent = false;
  /** Every connect that arrived while silent: when, and when the client gave up on it. */
  readonly unanswered: { at: number; closed?: number }[] = [];
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => {
      client.on('error', () => client.destroy());
      if (this.silent) {
        const attempt: { at: number; closed?: number } = { at: performance.now() };
        this.unanswered.push(attempt);
        client.on('close', () => (attempt.closed = performance.now()));
        client.resume(); // read (and drop) what it sends, so that its giving up is seen
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => this.open.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  goSilent(): void {
    this.silent = true;
    for (const s of this.open) s.destroy();
  }

  close(): Promise<void> {
    for (const s of this.open) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('a server gone silent (failover, a host restarting)', () => {
  it('a connect nobody answers gives its pool slot back within the pool timeout, so the api is back soon after the server', async () => {
    const target = new URL(testDatabaseUrl());
    const relay = new SilentRelay({ host: target.hostname, port: Number(target.port || 5432) });
    await relay.listen();
    cleanup.push(() => relay.close());
    const url = new URL(target);
    url.port = String(relay.port);
    const { t, cookie } = await appOn(url.toString());

    const load = traffic(t, cookie);
    while (load.statuses.filter((s) => s === 200).length < 6) await new Promise((r) => setTimeout(r, 20));
    relay.goSilent();
    // the pool's slots taken by connects nobody answers, and requests failing meanwhile
    while (relay.unanswered.length < POOL_SETTINGS.max || !load.statuses.slice(-3).every((s) => s === 503))
      await new Promise((r) => setTimeout(r, 20));
    relay.silent = false; // the server is back
    await load.stop();
    expect(
      load.statuses.every((s) => s === 200 || s === 503),
      load.statuses.join(','),
    ).toBe(true);

    // the api answers again (a bounded number of tries, each bounded by the pool's timeout)
    let res = await roleFunction(t, cookie);
    for (let i = 0; i < 50 && res.statusCode !== 200; i++) res = await roleFunction(t, cookie);
    expect(res.statusCode, res.body).toBe(200);
    // What held the api: every attempt begun while the server was silent kept its slot until the
    // pool gave up on it. That give-up is the pool's own timer; it must leave the api answering
    // within 5 s of the server's return (it was 10 s, and queued requests could chain several).
    while (relay.unanswered.some((a) => a.closed === undefined)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const held = relay.unanswered.map((a) => a.closed! - a.at);
    expect(Math.max(...held)).toBeLessThan(5_000);
  }, 300_000);
});
