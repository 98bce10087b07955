/**
 * Session lifetimes (plugins/session.ts): an active session never expires
 * before its idle limit, the row is still not rewritten on every request, and no session outlives
 * the absolute limit from its login. Time is moved by editing the stored row, never waited for.
 */
import { menuApi, sessionApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import LibrarySession from '@fastify/session/lib/session.js';
import { TOUCH_INTERVAL_MS, sessionState } from '../src/plugins/session.ts';
import { buildTestApp, login, sidOf, type TestApp, callApi } from './helpers.ts';

const IDLE = 120 * 60_000;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const PROTECTED = menuApi.roleFunction;
const rowOf = (sid: string) => t.db.prisma.session.findUniqueOrThrow({ where: { sid } });

/** Pretends the row was last written so that `exp` is what it stores (data._exp and expires_at alike). */
async function storedExpiry(sid: string, exp: number, extra: Record<string, unknown> = {}) {
  const row = await rowOf(sid);
  await t.db.prisma.session.update({
    where: { sid },
    data: { data: { ...(row.data as object), _exp: exp, ...extra }, expiresAt: new Date(exp) },
  });
}

describe('idle limit', () => {
  it('after any request the stored expiry is at least the idle limit away', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    for (let i = 0; i < 3; i++) {
      const at = Date.now();
      expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
      expect((await rowOf(sid)).expiresAt.getTime()).toBeGreaterThanOrEqual(at + IDLE);
    }
  });

  it('a stored expiry a second short of a full idle period is rewritten (the session would have died early)', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    await storedExpiry(sid, Date.now() + IDLE - 1000);
    const at = Date.now();
    expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
    const row = await rowOf(sid);
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(at + IDLE);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + IDLE + TOUCH_INTERVAL_MS);
    expect((row.data as { _exp: number })._exp).toBe(row.expiresAt.getTime());
  });

  it('while a full idle period remains, requests write nothing', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    await storedExpiry(sid, Date.now() + IDLE + 30_000);
    const before = await rowOf(sid);
    for (let i = 0; i < 3; i++) expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
    const after = await rowOf(sid);
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
    expect(after.expiresAt.getTime()).toBe(before.expiresAt.getTime());
  });

  it('a row past its stored expiry is a timed-out session (201)', async () => {
    const cookie = await login(t.app, 'demo3');
    await storedExpiry(sidOf(cookie), Date.now() - 1000);
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json().code).toBe('201');
  });
});

describe('absolute lifetime', () => {
  it('SESSION_ABSOLUTE_HOURS defaults to 12 hours', () => {
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32) }).sessionAbsoluteMs).toBe(12 * 3_600_000);
    expect(loadConfig({ SESSION_SECRET: 'x'.repeat(32), SESSION_ABSOLUTE_HOURS: '8' }).sessionAbsoluteMs).toBe(
      8 * 3_600_000,
    );
  });

  it('a session signed in 12 hours ago ends however active it is: 201 on user/current, 10000007 elsewhere', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    // active all along: the stored expiry is a full idle period away
    await storedExpiry(sid, Date.now() + IDLE + 30_000, { loginAt: Date.now() - 12 * 3_600_000 - 1000 });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: '201', message: '登录超时' });
    const again = await callApi(t.app, PROTECTED, {}, cookie);
    expect(again.json().code).toBe('10000007');
  });

  it('the stored expiry never reaches past login + the absolute limit', async () => {
    const short = await buildTestApp({ db: t.db, config: { sessionAbsoluteMs: 30 * 60_000 } });
    try {
      const cookie = await login(short.app, 'demo3');
      const sid = sidOf(cookie);
      const { loginAt } = (await rowOf(sid)).data as { loginAt: number };
      expect((await rowOf(sid)).expiresAt.getTime()).toBe(loginAt + 30 * 60_000);
      // signed in 25 minutes ago, a minute left on the row: the rewrite stops at the absolute end
      const earlier = Date.now() - 25 * 60_000;
      await storedExpiry(sid, Date.now() + 60_000, { loginAt: earlier });
      expect((await callApi(short.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
      expect((await rowOf(sid)).expiresAt.getTime()).toBe(earlier + 30 * 60_000);
    } finally {
      await short.close();
    }
  });
});

describe("the session's change check", () => {
  it("is @fastify/session's, made of the session's fields but its cookie as stable JSON instead of a hash", () => {
    const proto = LibrarySession.prototype as unknown as Record<symbol, unknown>;
    const key = Object.getOwnPropertySymbols(proto).find((s) => s.description === 'hash');
    expect(key && proto[key]).toBe(sessionState);
    const read = { cookie: { maxAge: 1 }, userId: 1, loginAt: 5, _user: { id: 1, account: 'demo3' } };
    // the order of the fields, the cookie and the user record read with the session do not count
    expect(sessionState.call(read)).toBe(sessionState.call({ loginAt: 5, userId: 1, cookie: { maxAge: 2 } }));
    expect(sessionState.call({ ...read, oidc: { state: 's' } })).not.toBe(sessionState.call(read));
    expect(sessionState.call({ ...read, userId: 2 })).not.toBe(sessionState.call(read));
  });
});
