/**
 * user/login refusals: bad credentials, malformed bodies, disabled accounts and
 * the per-account / per-address rate limit. Each failure is an envelope with a message a user
 * can act on, never a 5xx.
 */
import { sessionApi, type EndpointBody } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  buildTestApp,
  createUser,
  deleteUser,
  hasChinese,
  sessionCookie,
  type TestApp,
  callApi,
  unchecked,
} from './helpers.ts';

let t: TestApp;
const created: string[] = [];
// Failed logins count per address: this file's failures come from addresses of their own so the
// file's other logins from 127.0.0.1 are never throttled.
const BAD_IP = '10.20.0.1';

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const account of created) await deleteUser(t.db, account);
  await t.db.prisma.loginAttempt.deleteMany({ where: { ip: { startsWith: '10.20.' } } });
  await t.close();
});

const from = (ip: string) => ({ remoteAddress: ip });
function loginFrom(ip: string, body: EndpointBody<typeof sessionApi.login>, headers: Record<string, string> = {}) {
  return callApi(t.app, sessionApi.login, body, undefined, { headers, remoteAddress: ip });
}

describe('wrong credentials', () => {
  it('wrong password: 401, code 10000001, 账号或密码错误, no session', async () => {
    const res = await loginFrom(BAD_IP, { account: 'demo3', password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, code: '10000001', message: '账号或密码错误', data: null });
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('unknown account: the very same answer', async () => {
    const res = await loginFrom('10.20.0.2', { account: 'no-such-account', password: 'Esm@2026' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, code: '10000001', message: '账号或密码错误', data: null });
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('the account is trimmed, the password is not', async () => {
    const ok = await loginFrom('10.20.0.3', { account: '  demo3 ', password: 'Esm@2026' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().code).toBe('10000000');
    const bad = await loginFrom('10.20.0.3', { account: 'demo3', password: ' Esm@2026' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('10000001');
  });
});

describe('malformed bodies', () => {
  const schemaCases: [string, unknown, string][] = [
    ['empty object', {}, 'account'],
    ['missing password', { account: 'demo3' }, 'password'],
    ['missing account', { password: 'Esm@2026' }, 'account'],
    ['account is a number', { account: 123, password: 'Esm@2026' }, 'account'],
    ['password is an object', { account: 'demo3', password: { $ne: '' } }, 'password'],
    ['blank account', { account: '   ', password: 'Esm@2026' }, 'account'],
    ['empty password', { account: 'demo3', password: '' }, 'password'],
    ['overlong account', { account: 'a'.repeat(65), password: 'Esm@2026' }, 'account'],
    ['overlong password', { account: 'demo3', password: 'p'.repeat(129) }, 'password'],
    ['an array', [{ account: 'demo3', password: 'Esm@2026' }], ''],
    ['a JSON string', 'demo3', ''],
    ['null', null, ''],
  ];

  it.each(schemaCases)('%s → 400 with a Chinese message and field errors', async (_name, body, field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(400);
    const json = res.json();
    expect(json.success).toBe(false);
    expect(json.code).toBe('400');
    expect(json.data).toBeNull();
    expect(hasChinese(json.message), json.message).toBe(true);
    expect(Array.isArray(json.errors) && json.errors.length > 0).toBe(true);
    for (const e of json.errors) expect(hasChinese(e.message), e.message).toBe(true);
    if (field) expect(json.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('names the field in the summary message', async () => {
    const res = await loginFrom(BAD_IP, unchecked({ account: 'demo3' }));
    expect(res.json().message).toMatch(/密码/);
    const res2 = await loginFrom(BAD_IP, { account: 'a'.repeat(65), password: 'x' });
    expect(res2.json().message).toMatch(/账号/);
    expect(res2.json().message).toMatch(/64/);
  });

  it('non-JSON text sent as JSON → 400 "not valid JSON"', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'application/json' },
      payload: 'account=demo3&password=x',
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: '400', data: null });
    expect(res.json().message).toBe('请求内容不是有效的 JSON');
  });

  it('empty body declared as JSON → 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'application/json' },
      payload: '',
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(hasChinese(res.json().message)).toBe(true);
  });

  it('no body at all → 400 with a Chinese message', async () => {
    const res = await t.app.inject({ method: 'POST', url: api(sessionApi.login.path), ...from(BAD_IP) });
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(hasChinese(res.json().message)).toBe(true);
  });

  it('a plain-text body → 400: the text is not a login form', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'text/plain' },
      payload: 'demo3 Esm@2026',
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: '400', data: null });
    expect(hasChinese(res.json().message), res.json().message).toBe(true);
  });

  it('an unsupported content type → 415, asks for JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'application/xml' },
      payload: '<login account="demo3"/>',
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: '415', data: null });
    expect(res.json().message).toMatch(/JSON/);
    expect(hasChinese(res.json().message)).toBe(true);
  });

  it('a body over the 1 MB limit → 413 in Chinese', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.login.path),
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account: 'demo3', password: 'x'.repeat(1 << 20) }),
      ...from(BAD_IP),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: '413', data: null });
    expect(hasChinese(res.json().message)).toBe(true);
  });

  it('malformed bodies record no login attempt', async () => {
    const before = await t.db.prisma.loginAttempt.count({ where: { ip: '10.20.0.9' } });
    await loginFrom('10.20.0.9', unchecked({ account: 'demo3' }));
    await loginFrom('10.20.0.9', unchecked({}));
    expect(await t.db.prisma.loginAttempt.count({ where: { ip: '10.20.0.9' } })).toBe(before);
  });
});

describe('disabled account', () => {
  it('right password → 403, code 10000002, no session; wrong password still 401', async () => {
    const u = await createUser(t.db, { type: 3, prefix: 'disabled' });
    created.push(u.account);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: false } });
    const res = await loginFrom('10.20.0.4', { account: u.account, password: u.password });
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: '10000002', data: null });
    expect(hasChinese(body.message)).toBe(true);
    expect(sessionCookie(res)).toBeUndefined();
    // Only the right password learns that the account is disabled.
    const wrong = await loginFrom('10.20.0.4', { account: u.account, password: 'nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('10000001');
    // Enabled again, the account signs in.
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: true } });
    const again = await loginFrom('10.20.0.4', { account: u.account, password: u.password });
    expect(again.statusCode).toBe(200);
    expect(again.json().code).toBe('10000000');
  });
});

describe('a user type outside 2..9', () => {
  it.each([1, 10, 0])('type %i → 403 code 205 (没有权限), no session, never a 500', async (type) => {
    const u = await createUser(t.db, { type, prefix: 'notype' });
    created.push(u.account);
    const res = await loginFrom('10.20.0.5', { account: u.account, password: u.password });
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: '205', data: null });
    expect(body.message).toMatch(/没有权限/);
    expect(sessionCookie(res)).toBeUndefined();
    expect(await t.db.prisma.session.count({ where: { userId: u.id } })).toBe(0);
  });
});

describe('rate limit', () => {
  it('5 failures for one account → the 6th, even right, gets 429 10000003', async () => {
    const u = await createUser(t.db, { type: 3, prefix: 'ratelimit' });
    created.push(u.account);
    const ip = '10.20.1.1';
    // an address the account has signed in from before (test/login-limits.test.ts has the rules)
    expect((await loginFrom('10.20.1.2', { account: u.account, password: u.password })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const res = await loginFrom(ip, { account: u.account, password: `wrong-${i}` });
      expect(res.statusCode, `attempt ${i + 1}`).toBe(401);
      expect(res.json().code).toBe('10000001');
    }
    const sixth = await loginFrom(ip, { account: u.account, password: u.password });
    expect(sixth.statusCode).toBe(429);
    const body = sixth.json();
    expect(body).toMatchObject({ success: false, code: '10000003', data: null });
    expect(body.message).toMatch(/请\s*\d+\s*分钟后再试/);
    expect(body.message).toMatch(/15/); // the default window
    expect(sessionCookie(sixth)).toBeUndefined();

    // The account still signs in from an address it signs in from, and other accounts from
    // this address too; an address it never used waits for the window.
    const elsewhere = await loginFrom('10.20.1.2', { account: u.account, password: u.password });
    expect(elsewhere.statusCode).toBe(200);
    const other = await loginFrom(ip, { account: 'demo8', password: 'Esm@2026' });
    expect(other.statusCode).toBe(200);
    expect((await loginFrom('10.20.1.3', { account: u.account, password: u.password })).statusCode).toBe(429);

    // Once the failures leave the window the account may sign in again.
    await t.db.prisma.loginAttempt.updateMany({
      where: { account: u.account, success: false },
      data: { createdAt: new Date(Date.now() - 16 * 60_000) },
    });
    const later = await loginFrom(ip, { account: u.account, password: u.password });
    expect(later.statusCode).toBe(200);
    expect(later.json().code).toBe('10000000');
  });

  it('too many failures from one address across accounts → 429 for any account there', async () => {
    const strict = await buildTestApp({ db: t.db, config: { loginMaxFailuresPerIp: 3 } });
    try {
      const ip = '10.20.2.1';
      for (const account of ['nobody-a', 'nobody-b', 'nobody-c']) {
        const res = await callApi(strict.app, sessionApi.login, { account, password: 'x' }, undefined, from(ip));
        expect(res.statusCode).toBe(401);
      }
      const res = await callApi(
        strict.app,
        sessionApi.login,
        { account: 'demo3', password: 'Esm@2026' },
        undefined,
        from(ip),
      );
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('10000003');
    } finally {
      await strict.close();
      await t.db.prisma.loginAttempt.deleteMany({ where: { account: { startsWith: 'nobody-' } } });
    }
  });
});

describe('sanity', () => {
  it('a successful login sets an httpOnly session cookie', async () => {
    const res = await callApi(t.app, sessionApi.login, { account: 'demo9', password: 'Esm@2026' });
    expect(res.statusCode).toBe(200);
    const c = res.cookies.find((x) => x.name === 'esm_sid');
    expect(c).toBeDefined();
    expect(c!.httpOnly).toBe(true);
    expect(c!.path).toBe('/');
    expect(String(c!.sameSite).toLowerCase()).toBe('lax');
  });
});
