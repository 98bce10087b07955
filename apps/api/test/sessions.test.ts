/**
 * Sessions: cookie esm_sid over rows in http_session. No session or an
 * expired one → 10000007 on protected calls; user/current explains why with 201-204; login
 * rotates the id; logout ends it; any api process over the same database honours it.
 */
import { menuApi, sessionApi, visitsApi, type EndpointDef, API_BASE } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMenu } from '../src/db/seed.ts';
import { Signer } from '@fastify/cookie';
import { CachedSigner, PrismaSessionStore, stableJson } from '../src/plugins/session.ts';
import {
  buildTestApp,
  createUser,
  deleteUser,
  login,
  sessionCookie,
  sidOf,
  LEGACY_LOGOUT_BODY,
  type TestApp,
  callApi,
  DEMO_PASSWORD,
} from './helpers.ts';

let t: TestApp;
const created: string[] = [];
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  for (const account of created) await deleteUser(t.db, account);
  await t.close();
});

const PROTECTED = menuApi.roleFunction;

async function expectSessionExpired(cookie?: string, endpoint: EndpointDef = PROTECTED) {
  const res = await callApi(t.app, endpoint, {}, cookie);
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ success: false, code: '10000007', data: null });
  return res;
}

async function freshUser(type = 3) {
  const u = await createUser(t.db, { type, prefix: 'sess' });
  created.push(u.account);
  return u;
}

describe('no session', () => {
  it('a protected route answers 401 10000007', async () => {
    const res = await expectSessionExpired();
    expect(res.json().message).toBe('请先登录');
  });

  it("user/current without a session answers 200 with 10000007 and no homeUrl (the login page's ordinary check)", async () => {
    const res = await callApi(t.app, sessionApi.current);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: '10000007', data: null });
    expect(body.homeUrl).toBeUndefined();
  });

  it('a forged cookie is no session', async () => {
    await expectSessionExpired('esm_sid=forged-session-id.bad-signature');
  });
});

describe('session row', () => {
  it('login stores the session in http_session with the user and a future expiry', async () => {
    const cookie = await login(t.app, 'demo3');
    const row = await t.db.prisma.session.findUnique({ where: { sid: sidOf(cookie) } });
    expect(row).not.toBeNull();
    const demo3 = await t.db.prisma.user.findUniqueOrThrow({ where: { account: 'demo3' } });
    expect(row!.userId).toBe(demo3.id);
    const minutes = (row!.expiresAt.getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(100);
    expect(minutes).toBeLessThanOrEqual(121);
  });

  it('a login without a cookie answers the signed-in user as user/current will (read with the password check)', async () => {
    const res = await callApi(t.app, sessionApi.login, { account: 'demo2', password: DEMO_PASSWORD });
    expect(res.statusCode).toBe(200);
    const me = await callApi(t.app, sessionApi.current, {}, sessionCookie(res));
    expect(res.json().data).toEqual(me.json().data);
    expect(res.json().data).toMatchObject({ account: 'demo2', supplierCode: 'S001' });
    expect(res.json().data.supplierName).toBeTruthy();
  });

  it('a request when less than the idle limit remains extends the idle lifetime (rolling)', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    const before = await t.db.prisma.session.findUniqueOrThrow({ where: { sid } });
    const exp = Date.now() + 60_000;
    const data = { ...(before.data as Record<string, unknown>), _exp: exp };
    await t.db.prisma.session.update({ where: { sid }, data: { data, expiresAt: new Date(exp) } });
    const res = await callApi(t.app, PROTECTED, {}, cookie);
    expect(res.statusCode).toBe(200);
    const row = await t.db.prisma.session.findUniqueOrThrow({ where: { sid } });
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(100 * 60_000);
  });
});

describe('session writes', () => {
  it('requests while a full idle period remains leave the row alone', async () => {
    const cookie = await login(t.app, 'demo3');
    const sid = sidOf(cookie);
    const first = await t.db.prisma.session.findUniqueOrThrow({ where: { sid } });
    for (let i = 0; i < 3; i++) expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
    const after = await t.db.prisma.session.findUniqueOrThrow({ where: { sid } });
    expect(after.updatedAt.getTime()).toBe(first.updatedAt.getTime());
    expect(after.expiresAt.getTime()).toBe(first.expiresAt.getTime());
  });
});

describe('expired session', () => {
  it('a protected route answers 401 10000007', async () => {
    const cookie = await login(t.app, 'demo3');
    const n = await t.db.prisma.session.updateMany({
      where: { sid: sidOf(cookie) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(n.count).toBe(1);
    const res = await expectSessionExpired(cookie);
    expect(res.json().message).toMatch(/登录已过期/);
  });

  it('user/current answers code 201 (登录超时) with homeUrl', async () => {
    const cookie = await login(t.app, 'demo3');
    await t.db.prisma.session.updateMany({
      where: { sid: sidOf(cookie) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: '201', message: '登录超时', data: null });
    expect(typeof body.homeUrl).toBe('string');
    expect(body.homeUrl!.length).toBeGreaterThan(0);
  });

  it('a session row deleted behind the cookie is the same as expired', async () => {
    const cookie = await login(t.app, 'demo3');
    await t.db.prisma.session.deleteMany({ where: { sid: sidOf(cookie) } });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.json().code).toBe('201');
    await expectSessionExpired(cookie);
  });
});

describe('account changed after login', () => {
  it('user deleted → user/current 202 (登录错误), protected routes 10000007', async () => {
    const u = await freshUser();
    const cookie = await login(t.app, u.account, u.password);
    const cookie2 = await login(t.app, u.account, u.password);
    await t.db.prisma.user.delete({ where: { id: u.id } });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '202', message: '登录错误', data: null });
    expect(res.json().homeUrl).toBeTruthy();
    await expectSessionExpired(cookie2);
  });

  it('user disabled → user/current 203 (登录失效), protected routes 10000007', async () => {
    const u = await freshUser();
    const cookie = await login(t.app, u.account, u.password);
    const cookie2 = await login(t.app, u.account, u.password);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: false } });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '203', message: '登录失效', data: null });
    await expectSessionExpired(cookie2);
    // The session is gone, not just refused: enabling the account does not revive it.
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: true } });
    await expectSessionExpired(cookie);
    await expectSessionExpired(cookie2);
  });

  it('a session that made no call while the account was disabled stays over once it is enabled again', async () => {
    const u = await freshUser();
    const idle = await login(t.app, u.account, u.password);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: false } });
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: true } });
    await expectSessionExpired(idle);
    // signing in again works, and a later change that ends nothing (a name) leaves the new session alone
    const fresh = await login(t.app, u.account, u.password);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { name: '改名后' } });
    expect((await callApi(t.app, PROTECTED, {}, fresh)).statusCode).toBe(200);
  });

  it('a supplier account moved to another supplier: its sessions end (they acted for the old one)', async () => {
    const [a, b] = await t.db.prisma.supplier.findMany({ take: 2, orderBy: { code: 'asc' } });
    const u = await createUser(t.db, { type: 2, prefix: 'sess', supplierCode: a!.code });
    created.push(u.account);
    const cookie = await login(t.app, u.account, u.password);
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json()).toMatchObject({ code: '0' });
    await t.db.prisma.user.update({ where: { id: u.id }, data: { supplierCode: b!.code } });
    await expectSessionExpired(cookie);
  });

  it('user type changed → user/current 204 (登录失效), protected routes 10000007', async () => {
    const u = await freshUser(3);
    const cookie = await login(t.app, u.account, u.password);
    const cookie2 = await login(t.app, u.account, u.password);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { type: 8 } });
    const res = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '204', message: '登录失效', data: null });
    await expectSessionExpired(cookie2);
    // Signing in again picks up the new type.
    const fresh = await login(t.app, u.account, u.password);
    const cur = await callApi(t.app, sessionApi.current, undefined, fresh);
    expect(cur.json()).toMatchObject({ code: '0', data: { type: 8 } });
  });

  it('a user type with no menu → user/current 205 (没有权限) with homeUrl', async () => {
    const u = await freshUser(6);
    const cookie = await login(t.app, u.account, u.password);
    try {
      await t.db.prisma.menuGrant.deleteMany({ where: { userType: 6 } });
      const res = await callApi(t.app, sessionApi.current, undefined, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: '205', message: '没有权限', data: null });
      expect(res.json().homeUrl).toBeTruthy();
    } finally {
      await seedMenu(t.db.prisma);
    }
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json().code).toBe('0');
  });

  it('a name change shows at once (the user is read fresh on every call)', async () => {
    const u = await freshUser(3);
    const cookie = await login(t.app, u.account, u.password);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { name: '新名字' } });
    const cur = await callApi(t.app, sessionApi.current, undefined, cookie);
    expect(cur.json()).toMatchObject({ code: '0', data: { name: '新名字', displayName: '新名字' } });
  });
});

describe('logout', () => {
  it('ends the session: the old cookie gets 10000007, the row is gone, the cookie is cleared', async () => {
    const cookie = await login(t.app, 'demo3');
    expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
    const res = await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: null });
    const cleared = res.cookies.find((c) => c.name === 'esm_sid');
    expect(cleared).toBeDefined();
    expect(cleared!.value === '' || (cleared!.expires !== undefined && cleared!.expires.getTime() <= Date.now())).toBe(
      true,
    );
    expect(await t.db.prisma.session.count({ where: { sid: sidOf(cookie) } })).toBe(0);
    await expectSessionExpired(cookie);
    await expectSessionExpired(cookie, visitsApi.page);
    // A browser that dropped the cleared cookie: not signed in.
    expect((await callApi(t.app, sessionApi.current)).json().code).toBe('10000007');
  });

  it('logout without a session is harmless', async () => {
    const res = await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY);
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
  });

  it('logout ends only its own session', async () => {
    const a = await login(t.app, 'demo3');
    const b = await login(t.app, 'demo3');
    await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY, a);
    expect((await callApi(t.app, PROTECTED, {}, b)).statusCode).toBe(200);
  });
});

describe('no resurrection', () => {
  it('a save arriving after the row was deleted (a request in flight at logout) does not bring the session back', async () => {
    const u = await freshUser();
    const cookie = await login(t.app, u.account);
    const sid = sidOf(cookie);
    const row = await t.db.prisma.session.findUniqueOrThrow({ where: { sid } });
    await t.db.prisma.session.delete({ where: { sid } });
    const store = new PrismaSessionStore(t.db.prisma, 60_000);
    await new Promise<void>((resolve, reject) =>
      store.set(sid, { ...(row.data as object), userId: u.id }, (e) => (e ? reject(e) : resolve())),
    );
    expect(await t.db.prisma.session.count({ where: { sid } })).toBe(0);
    await expectSessionExpired(cookie);
  });
});

describe('login rotates the session id', () => {
  it('a cookie presented at login is replaced and no longer works', async () => {
    const before = await login(t.app, 'demo3');
    const res = await callApi(t.app, sessionApi.login, { account: 'demo3', password: 'Esm@2026' }, before);
    expect(res.statusCode).toBe(200);
    const after = sessionCookie(res);
    expect(after).toBeDefined();
    expect(sidOf(after!)).not.toBe(sidOf(before));
    await expectSessionExpired(before);
    expect((await callApi(t.app, PROTECTED, {}, after)).statusCode).toBe(200);
  });

  it('signing in as someone else over a live cookie gives a new session for the new user', async () => {
    const supplier = await login(t.app, 'demo2');
    const res = await callApi(t.app, sessionApi.login, { account: 'demo3', password: 'Esm@2026' }, supplier);
    const admin = sessionCookie(res)!;
    expect(sidOf(admin)).not.toBe(sidOf(supplier));
    expect((await callApi(t.app, sessionApi.current, undefined, admin)).json().data!.type).toBe(3);
    await expectSessionExpired(supplier);
  });

  it('two independent logins get two live sessions', async () => {
    const a = await login(t.app, 'demo7');
    const b = await login(t.app, 'demo7');
    expect(sidOf(a)).not.toBe(sidOf(b));
    expect((await callApi(t.app, PROTECTED, {}, a)).statusCode).toBe(200);
    expect((await callApi(t.app, PROTECTED, {}, b)).statusCode).toBe(200);
  });

  it('a failed login leaves the presented session as it was', async () => {
    const cookie = await login(t.app, 'demo3');
    const res = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/${sessionApi.login.path}`,
      payload: { account: 'demo3', password: 'wrong' },
      headers: { cookie },
      remoteAddress: '10.30.0.1',
    });
    expect(res.statusCode).toBe(401);
    expect((await callApi(t.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
    await t.db.prisma.loginAttempt.deleteMany({ where: { ip: '10.30.0.1' } });
  });
});

describe('two api processes over one database', () => {
  it('share sessions: login on A works on B; logout on B ends it on A', async () => {
    const b = await buildTestApp(); // its own connection pool, as another process would have
    try {
      const cookie = await login(t.app, 'demo4');
      const cur = await callApi(b.app, sessionApi.current, undefined, cookie);
      expect(cur.statusCode).toBe(200);
      expect(cur.json()).toMatchObject({
        code: '0',
        data: { account: 'demo4', type: 4, supplierName: '宁波东方电子科技有限公司' },
      });
      expect((await callApi(b.app, PROTECTED, {}, cookie)).statusCode).toBe(200);
      await callApi(b.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie);
      const after = await callApi(t.app, PROTECTED, {}, cookie);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('10000007');
    } finally {
      await b.close();
    }
  });

  it('an app with another session secret does not accept the cookie', async () => {
    const other = await buildTestApp({
      db: t.db,
      config: { sessionSecret: 'another-secret-0123456789-0123456789-xyz' },
    });
    try {
      const cookie = await login(t.app, 'demo3');
      const res = await callApi(other.app, PROTECTED, {}, cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('10000007');
    } finally {
      await other.close();
    }
  });
});

describe('the session cookie signer remembers, and answers as the plain one', () => {
  const secret = 'a-session-secret-of-40-characters-0123456';
  it('signs and verifies exactly as @fastify/cookie, refusing forgeries and other secrets every time', () => {
    const plain = new Signer(secret);
    const cached = new CachedSigner(secret, 3);
    const ids = ['sid-one', 'sid-two', 'sid-three', 'sid-four', 'sid-one'];
    for (const id of ids) {
      expect(cached.sign(id)).toBe(plain.sign(id));
      expect(cached.sign(id)).toBe(plain.sign(id));
      expect(cached.unsign(plain.sign(id))).toEqual(plain.unsign(plain.sign(id)));
      expect(cached.unsign(plain.sign(id))).toEqual({ valid: true, renew: false, value: id });
    }
    const good = plain.sign('sid-one');
    const forged = `${good.slice(0, -2)}xx`;
    for (let i = 0; i < 2; i++) {
      expect(cached.unsign(forged)).toEqual({ valid: false, renew: false, value: null });
      expect(cached.unsign(new Signer('another-secret-of-40-characters-01234567').sign('sid-one')).valid).toBe(false);
      expect(cached.unsign('no-signature').valid).toBe(false);
    }
    expect(() => new CachedSigner('short')).toThrow();
  });

  it('hashes a session the way JSON sees it (undefined and functions left out, toJSON used, keys sorted)', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const value = { b: 1, a: { d: [1, undefined, 'x'], c: at }, skip: undefined, fn: () => 1 };
    const viaJson = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    expect(stableJson(value)).toBe(stableJson(viaJson));
    expect(stableJson(value)).toBe('{"a":{"c":"2026-01-02T03:04:05.000Z","d":[1,null,"x"]},"b":1}');
  });
});
