/**
 * Login limits under concurrency (modules/session/limits.ts): real
 * parallel requests against the real Postgres. "Checked" below means the password was looked at
 * (401 or 200); a refused attempt is a 429 and never reaches the password.
 */
import { sessionApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildTestApp, createUser, deleteUser, hasChinese, type TestApp, callApi } from './helpers.ts';

let t: TestApp;
const created: string[] = [];
// every address here is 10.50.*.* (test/login.test.ts uses 10.20.*, others 127.0.0.1)
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const account of created) await deleteUser(t.db, account);
  await t.db.prisma.loginAttempt.deleteMany({
    where: { OR: [{ ip: { startsWith: '10.50.' } }, { account: { startsWith: 'ghost-' } }] },
  });
  await t.close();
});

async function freshUser(prefix = 'limit') {
  const u = await createUser(t.db, { type: 3, prefix });
  created.push(u.account);
  return u;
}

function loginFrom(ip: string, account: string, password: string, app = t.app) {
  return callApi(app, sessionApi.login, { account, password }, undefined, { remoteAddress: ip });
}

/** Sends all at once; answers the statuses. */
async function burst(requests: (() => ReturnType<typeof loginFrom>)[]) {
  const res = await Promise.all(requests.map((r) => r()));
  return res;
}

const checked = (statuses: number[]) => statuses.filter((s) => s !== 429).length;
const failuresOf = (account: string) => t.db.prisma.loginAttempt.count({ where: { account, success: false } });

describe('concurrent logins cannot beat the per-account limit', () => {
  it('19 wrong passwords and the right one at once from one address: exactly 5 are checked', async () => {
    const u = await freshUser();
    const ip = '10.50.1.1';
    const all = await burst([
      ...Array.from({ length: 19 }, (_, i) => () => loginFrom(ip, u.account, `wrong-${i}`)),
      () => loginFrom(ip, u.account, u.password),
    ]);
    const statuses = all.map((r) => r.statusCode);
    expect(checked(statuses), statuses.join(',')).toBe(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    for (const r of all.filter((x) => x.statusCode === 429)) {
      expect(r.json()).toMatchObject({ success: false, code: '10000003', data: null });
      expect(hasChinese(r.json().message)).toBe(true);
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await t.db.prisma.loginAttempt.count({ where: { account: u.account } })).toBe(5);
  });

  it('20 wrong passwords at once from 20 addresses: still 5 checks for the account', async () => {
    const u = await freshUser();
    const all = await burst(
      Array.from({ length: 20 }, (_, i) => () => loginFrom(`10.50.2.${i + 1}`, u.account, `wrong-${i}`)),
    );
    const statuses = all.map((r) => r.statusCode);
    expect(checked(statuses), statuses.join(',')).toBe(5);
    expect(await failuresOf(u.account)).toBe(5);
    // and the right password from yet another address waits for the window too
    expect((await loginFrom('10.50.2.99', u.account, u.password)).statusCode).toBe(429);
  });

  it('once the failures leave the window the account signs in again', async () => {
    const u = await freshUser();
    const ip = '10.50.3.1';
    for (let i = 0; i < 5; i++) expect((await loginFrom(ip, u.account, 'nope')).statusCode).toBe(401);
    expect((await loginFrom(ip, u.account, u.password)).statusCode).toBe(429);
    await t.db.prisma.loginAttempt.updateMany({
      where: { account: u.account },
      data: { createdAt: new Date(Date.now() - 16 * 60_000) },
    });
    expect((await loginFrom(ip, u.account, u.password)).statusCode).toBe(200);
  });
});

describe('one address cannot lock out everyone behind it', () => {
  it('spraying from one address: 40 accounts at once, only 30 checked', async () => {
    const ip = '10.50.4.1';
    const all = await burst(
      Array.from({ length: 40 }, (_, i) => () => loginFrom(ip, `ghost-spray-${i}`, 'Winter2026!')),
    );
    const statuses = all.map((r) => r.statusCode);
    expect(checked(statuses), statuses.join(',')).toBe(30);
    expect(await t.db.prisma.loginAttempt.count({ where: { ip } })).toBe(30);
  });

  it('after 30 failures on unknown accounts, a user who signs in from that address still does; a stranger waits; elsewhere is unaffected', async () => {
    const regular = await freshUser('regular');
    const newcomer = await freshUser('newcomer');
    const ip = '10.50.5.1';
    // the regular user has signed in from this address before (the office's proxy or NAT)
    expect((await loginFrom(ip, regular.account, regular.password)).statusCode).toBe(200);
    const spray = await burst(Array.from({ length: 30 }, (_, i) => () => loginFrom(ip, `ghost-nat-${i}`, 'x')));
    expect(spray.map((r) => r.statusCode).every((s) => s === 401)).toBe(true);
    expect((await loginFrom(ip, 'ghost-nat-next', 'x')).statusCode).toBe(429);

    const again = await loginFrom(ip, regular.account, regular.password);
    expect(again.statusCode).toBe(200);
    expect(again.json().code).toBe('10000000');
    // the documented trade-off: a first sign-in from a sprayed address waits for the window …
    expect((await loginFrom(ip, newcomer.account, newcomer.password)).statusCode).toBe(429);
    // … while from any other address it goes through
    expect((await loginFrom('10.50.5.2', newcomer.account, newcomer.password)).statusCode).toBe(200);
  });

  it('guessing an account from elsewhere does not lock its owner out at the address they sign in from', async () => {
    const owner = await freshUser('owner');
    const home = '10.50.6.1';
    expect((await loginFrom(home, owner.account, owner.password)).statusCode).toBe(200);
    const guesses = await burst(
      Array.from({ length: 8 }, (_, i) => () => loginFrom(`10.50.6.${i + 10}`, owner.account, `guess-${i}`)),
    );
    expect(checked(guesses.map((r) => r.statusCode))).toBe(5);
    expect((await loginFrom('10.50.6.99', owner.account, owner.password)).statusCode).toBe(429);
    expect((await loginFrom(home, owner.account, owner.password)).statusCode).toBe(200);
  });

  it('from a known address the pair still gets only 5 checks, whatever arrives at once', async () => {
    const u = await freshUser();
    const ip = '10.50.7.1';
    expect((await loginFrom(ip, u.account, u.password)).statusCode).toBe(200);
    const all = await burst(Array.from({ length: 12 }, (_, i) => () => loginFrom(ip, u.account, `wrong-${i}`)));
    expect(checked(all.map((r) => r.statusCode))).toBe(5);
    expect((await loginFrom(ip, u.account, u.password)).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY names proxies, never "anyone"', () => {
  it('TRUST_PROXY=true, a hop count or a non-address stops the start with a message', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      /TRUST_PROXY=true would trust an X-Forwarded-For sent by anyone/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '1', SESSION_SECRET: 'x'.repeat(32) })).toThrow(/hop count/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal', SESSION_SECRET: 'x'.repeat(32) })).toThrow(
      /not an IP address or CIDR: proxy.internal/,
    );
    expect(loadConfig({ TRUST_PROXY: '', SESSION_SECRET: 'x'.repeat(32) }).trustProxy).toBe(false);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.5, 172.28.0.0/24,loopback', SESSION_SECRET: 'x'.repeat(32) }).trustProxy,
    ).toEqual(['10.0.0.5', '172.28.0.0/24', 'loopback']);
  });

  it('40 wrong passwords with 40 invented X-Forwarded-For from a client that is not the proxy: limited by its real address', async () => {
    const proxied = await buildTestApp({ db: t.db, config: { trustProxy: ['10.50.8.1'] } });
    try {
      const u = await freshUser();
      const all = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          callApi(proxied.app, sessionApi.login, { account: `ghost-xff-${i}`, password: 'x' }, undefined, {
            remoteAddress: '10.50.8.77',
            headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
          }),
        ),
      );
      expect(checked(all.map((r) => r.statusCode))).toBe(30);
      expect(await t.db.prisma.loginAttempt.count({ where: { ip: '10.50.8.77' } })).toBe(30);
      expect(await t.db.prisma.loginAttempt.count({ where: { ip: { startsWith: '203.0.113.' } } })).toBe(0);
      // through the real proxy the client's own address counts: the last hop the proxy added
      const via = await callApi(
        proxied.app,
        sessionApi.login,
        { account: u.account, password: u.password },
        undefined,
        { remoteAddress: '10.50.8.1', headers: { 'x-forwarded-for': '8.8.8.8, 10.50.8.200' } },
      );
      expect(via.statusCode).toBe(200);
      expect(await t.db.prisma.loginAttempt.findFirst({ where: { account: u.account }, select: { ip: true } })).toEqual(
        { ip: '10.50.8.200' },
      );
    } finally {
      await proxied.close();
    }
  });
});
