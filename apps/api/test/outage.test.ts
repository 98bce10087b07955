/**
 * The database away: every call answers 503 in the envelope with a Chinese
 * message and Retry-After — not a 500 — and the portal recovers by itself when the database is
 * back. The outage is real: the app reaches Postgres through a TCP relay of the test's own, which
 * the test closes (connection refused, open connections cut) and opens again; and backends are
 * terminated by Postgres itself (pg_terminate_backend), as a restart or failover does.
 */
import { archivesApi, menuApi, sessionApi, visitsApi } from '@esm/contracts';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import {
  buildTestApp,
  createUser,
  deleteUser,
  hasChinese,
  login,
  type TestApp,
  callApi,
  testDatabaseUrl,
} from './helpers.ts';

/** A TCP relay to the test database's server that can be taken down and brought back on the same port. */
class Relay {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async up(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Refuses new connections and cuts the open ones. */
  async down(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

const dbUrl = new URL(testDatabaseUrl());
const relay = new Relay({ host: dbUrl.hostname, port: Number(dbUrl.port || 5432) });
let t: TestApp;
let cookie: string;

beforeAll(async () => {
  await relay.up();
  const url = new URL(dbUrl);
  url.port = String(relay.port);
  url.searchParams.set('application_name', 'esm_outage_test');
  const db = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  t = await buildTestApp({ db });
  cookie = await login(t.app, 'demo3');
});
afterAll(async () => {
  await t.close();
  await t.db.close();
});

function expect503(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ success: false, code: '503', data: null });
  expect(hasChinese(body.message)).toBe(true);
  expect(body.message).not.toMatch(/prisma|ECONN|postgres|terminated/i);
}

const calls = () => [
  callApi(t.app, sessionApi.login, { account: 'demo3', password: 'Esm@2026' }, undefined, {
    remoteAddress: '10.70.0.1',
  }),
  callApi(t.app, sessionApi.current, undefined, cookie),
  callApi(t.app, menuApi.roleFunction, {}, cookie),
  callApi(t.app, archivesApi.files, {}, cookie),
  callApi(t.app, visitsApi.page, {}, cookie),
];

/** Calls `probe` until `done` says the state is reached (a bounded number of tries, no clock). */
async function until<T>(probe: () => Promise<T>, done: (v: T) => boolean, tries = 200): Promise<T> {
  let v = await probe();
  for (let i = 1; i < tries && !done(v); i++) {
    await new Promise((r) => setImmediate(r));
    v = await probe();
  }
  return v;
}

describe('the database unreachable', () => {
  it('every call answers 503 with Retry-After while it is down, and all work again once it is back', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/esm-server/health' })).statusCode).toBe(200);
    await relay.down();
    for (const res of await Promise.all(calls())) expect503(res);
    const health = await t.app.inject({ method: 'GET', url: '/esm-server/health' });
    expect(health.statusCode).toBe(503);
    expect(Number(health.headers['retry-after'])).toBeGreaterThan(0);

    await relay.up();
    const back = await until(
      () => t.app.inject({ method: 'GET', url: '/esm-server/health' }),
      (r) => r.statusCode === 200,
    );
    expect(back.statusCode).toBe(200);
    for (const res of await Promise.all(calls())) expect(res.statusCode, res.body).toBe(200);
    // the session signed in before the outage is still good
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json().code).toBe('0');
  });

  it('backends terminated by Postgres (a restart, a failover): never a 500, and the pool reconnects', async () => {
    expect((await callApi(t.app, menuApi.roleFunction, {}, cookie)).statusCode).toBe(200);
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'esm_outage_test' AND datname = current_database()`,
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    const statuses = (await Promise.all(calls())).map((r) => r.statusCode);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(','),
    ).toBe(true);
    const ok = await until(
      () => callApi(t.app, menuApi.roleFunction, {}, cookie),
      (r) => r.statusCode === 200,
    );
    expect(ok.statusCode).toBe(200);
  });

  it('an app started while the database is unreachable answers 503, not 500', async () => {
    const closed = new Relay({ host: '127.0.0.1', port: 1 });
    await closed.up();
    const port = closed.port;
    await closed.down(); // a port nobody listens on: connection refused
    const db = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/nowhere`, dataDir: '' });
    const dead = await buildTestApp({ db });
    try {
      for (const res of await Promise.all([
        callApi(dead.app, sessionApi.login, { account: 'demo3', password: 'Esm@2026' }),
        callApi(dead.app, menuApi.roleFunction, {}, cookie),
      ]))
        expect503(res);
    } finally {
      await dead.close();
      await db.close();
    }
  });
});

/**
 * Holds every read of the accounts table (a second connection, straight to Postgres, keeps
 * `LOCK TABLE app_user IN ACCESS EXCLUSIVE MODE` open) so that a sign-in stops after it took
 * its login slot and before its password is checked; which call waits is read off Postgres.
 */
async function holdAccountReads() {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE app_user IN ACCESS EXCLUSIVE MODE');
  const me = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  return {
    async waiting() {
      await expect
        .poll(
          async () =>
            (await client.query('SELECT pid FROM pg_locks WHERE NOT granted AND $1 = ANY(pg_blocking_pids(pid))', [me]))
              .rowCount,
          { timeout: 30_000, interval: 20 },
        )
        .toBeGreaterThan(0);
    },
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

describe('the database gone in the middle of a sign-in', () => {
  it('an attempt the outage cut short is no password failure: after five of them the right password signs in', async () => {
    const user = await createUser(t.db, { type: 3, prefix: 'outage' });
    const from = '10.70.2.1';
    const signIn = () =>
      callApi(t.app, sessionApi.login, { account: user.account, password: user.password }, undefined, {
        remoteAddress: from,
      });
    try {
      for (let i = 0; i < 5; i++) {
        const hold = await holdAccountReads();
        const attempt = signIn();
        await hold.waiting(); // the slot is taken; the password not yet looked at
        await relay.down();
        expect503(await attempt);
        await relay.up();
        await hold.release();
        expect(
          (
            await until(
              () => t.app.inject({ method: 'GET', url: '/esm-server/health' }),
              (r) => r.statusCode === 200,
            )
          ).statusCode,
        ).toBe(200);
      }
      const res = await signIn();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().code).toBe('10000000');
      expect(await t.db.prisma.loginAttempt.count({ where: { account: user.account, success: false } })).toBe(0);
    } finally {
      await deleteUser(t.db, user.account);
    }
  });

  it('a wrong password still counts: after five, even the right one waits', async () => {
    const user = await createUser(t.db, { type: 3, prefix: 'outage' });
    const from = '10.70.2.2';
    const signIn = (password: string) =>
      callApi(t.app, sessionApi.login, { account: user.account, password }, undefined, { remoteAddress: from });
    try {
      for (let i = 0; i < 5; i++) expect((await signIn('wrong-password')).statusCode).toBe(401);
      const refused = await signIn(user.password);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toMatch(/登录失败次数过多/);
    } finally {
      await t.db.prisma.loginAttempt.deleteMany({ where: { account: user.account } });
      await deleteUser(t.db, user.account);
    }
  });
});

/**
 * Two api processes on one database: A reaches it through the relay, B directly. What A could not
 * give back during an outage must not lock the account on B, and A's slots in flight must count
 * on B like its own.
 */
describe('two processes: the slots of attempts an outage cut short', () => {
  it('count on the other process while their check is out, stop counting there once it has run out, and a check past it cannot settle', async () => {
    const url = new URL(dbUrl);
    url.port = String(relay.port);
    url.searchParams.set('application_name', 'esm_outage_test_a');
    const dbA = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    // A gives a check 3 s (10 s in production) so that the test sees the end of it
    const a = await buildTestApp({ db: dbA, config: { loginCheckMs: 3_000 } });
    const b = await buildTestApp();
    const user = await createUser(b.db, { type: 3, prefix: 'twoproc' });
    const from = '10.70.3.1';
    const signIn = (app: TestApp, password = user.password) =>
      callApi(app.app, sessionApi.login, { account: user.account, password }, undefined, { remoteAddress: from });
    let relayDown = false;
    const rows = () => b.db.prisma.loginAttempt.findMany({ where: { account: user.account }, orderBy: { id: 'asc' } });
    try {
      // five sign-ins on A take their slots and wait for the accounts table
      const hold = await holdAccountReads();
      const onA = Array.from({ length: 5 }, () => signIn(a));
      await expect.poll(async () => (await rows()).length, { timeout: 30_000, interval: 50 }).toBe(5);
      // meanwhile B counts them: a sixth check on the account would be one too many
      const refused = await signIn(b);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(4);

      // the database goes away under A: its attempts end in 503 and A cannot give their slots back
      await relay.down();
      relayDown = true;
      for (const res of await Promise.all(onA)) expect503(res);
      await hold.release();
      // A stays cut off (as if it had died): its five slots are still in the table …
      expect((await rows()).map((r) => r.success)).toEqual([false, false, false, false, false]);
      // … yet once their check has run out B signs the user in with no help from A
      await expect.poll(async () => (await signIn(b)).statusCode, { timeout: 30_000, interval: 250 }).toBe(200);
      expect((await rows()).filter((r) => !r.success && r.checkUntil === null)).toHaveLength(0);

      // a wrong password on B is a failure for good: settled, no end to its counting but the window
      expect((await signIn(b, 'wrong-password')).statusCode).toBe(401);
      const wrong = (await rows()).at(-1)!;
      expect(wrong).toMatchObject({ success: false, checkUntil: null });

      // A back: a check that outlives its slot cannot settle — neither 401 nor 200 is told
      await relay.up();
      relayDown = false;
      expect(
        (
          await until(
            () => a.app.inject({ method: 'GET', url: '/esm-server/health' }),
            (r) => r.statusCode === 200,
          )
        ).statusCode,
      ).toBe(200);
      const hold2 = await holdAccountReads();
      const late = signIn(a, 'wrong-again');
      await hold2.waiting();
      await expect
        .poll(
          async () =>
            (
              await b.db.prisma.$queryRaw<
                { n: number }[]
              >`SELECT count(*)::int AS n FROM login_attempt WHERE account = ${user.account} AND check_until < (clock_timestamp() AT TIME ZONE 'UTC')`
            )[0]!.n,
          { timeout: 30_000, interval: 100 },
        )
        .toBe(1);
      await hold2.release();
      expect503(await late);
      // its slot is given back: only the one wrong password counts
      expect((await rows()).filter((r) => !r.success)).toHaveLength(1);
    } finally {
      if (relayDown) await relay.up();
      await b.db.prisma.loginAttempt.deleteMany({ where: { account: user.account } });
      await deleteUser(b.db, user.account);
      await a.close();
      await dbA.close();
      await b.close();
    }
  });
});
