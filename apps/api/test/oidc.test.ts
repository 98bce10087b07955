/**
 * Sign-in from the company home page against a real OpenID provider (oidc-provider,
 * in-process on 127.0.0.1, test/idp.ts): the browser's part — the provider's login form, its
 * redirects and cookies — is played with fetch; the portal's part through app.inject. Also the
 * logout race fix: a request in flight at logout never hands the old session cookie back.
 */
import { menuApi, noticesApi, sessionApi, PAGES } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
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
  testDatabaseUrl,
} from './helpers.ts';
import { IDP_CLIENT, startIdp, type TestIdp } from './idp.ts';

const REDIRECT_URI = 'http://portal.test/esm';
const HOME = 'http://portal.test/esm/login';

let idp: TestIdp;
let t: TestApp; // OIDC configured
let plain: TestApp; // as today: no OIDC_* at all
const created: string[] = [];

const oidcConfig = (extra: object = {}) => ({
  oidc: {
    issuer: idp.issuer,
    clientId: IDP_CLIENT.id,
    clientSecret: IDP_CLIENT.secret,
    redirectUri: REDIRECT_URI,
    scopes: 'openid profile esm',
    accountClaim: 'preferred_username',
    typeClaim: 'esm_user_type',
    supplierClaim: 'esm_supplier_code',
    nameClaim: 'name',
    createUsers: false,
    ...extra,
  },
});

beforeAll(async () => {
  idp = await startIdp({ redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [HOME] });
  t = await buildTestApp({ config: oidcConfig() });
  plain = await buildTestApp({ db: t.db });
});
afterAll(async () => {
  for (const account of created) await deleteUser(t.db, account);
  await plain.close();
  await t.close();
  await idp.close();
});

/** A browser at the provider: follows its redirects by hand and keeps its cookies. */
class Browser {
  private jar = new Map<string, string>();
  async go(url: string | URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: init.form ? new URLSearchParams(init.form) : undefined,
    });
    for (const c of res.headers.getSetCookie()) {
      const kv = c.split(';')[0]!;
      const i = kv.indexOf('=');
      this.jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
    return res;
  }
  /** Follows redirects until one leaves the provider; returns that address. */
  async follow(res: Response, base: string): Promise<URL> {
    let r = res;
    let at = base;
    for (;;) {
      const loc = r.headers.get('location');
      if (!loc) throw new Error(`provider answered ${r.status} without a redirect: ${(await r.text()).slice(0, 300)}`);
      const next = new URL(loc, at);
      if (!next.href.startsWith(idp.issuer)) return next;
      at = next.href;
      r = await this.go(next);
      if (r.status === 200) return next;
    }
  }
  /** At the provider's own login form (its development interaction): signs in as `accountId`. */
  async signIn(authUrl: string, accountId: string): Promise<URL> {
    const form = await this.follow(await this.go(authUrl), authUrl);
    const html = await (await this.go(form)).text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no login form: ${html.slice(0, 300)}`);
    return this.follow(
      await this.go(new URL(action, form), {
        method: 'POST',
        form: { prompt: 'login', login: accountId, password: 'any' },
      }),
      form.href,
    );
  }
}

/** Starts a company sign-in at the portal: the provider's address and the pending session's cookie. */
async function start(app = t.app): Promise<{ url: string; cookie: string }> {
  const res = await callApi(app, sessionApi.companyLogin, {});
  expect(res.statusCode, res.body).toBe(200);
  const cookie = sessionCookie(res);
  expect(cookie).toBeDefined();
  return { url: res.json().data.url as string, cookie: cookie! };
}

/** The session check as the SPA sends it: the page's query parameters. */
const check = (params: Record<string, string>, cookie?: string, app = t.app) =>
  callApi(app, sessionApi.current, params, cookie);
const paramsOf = (u: URL) => Object.fromEntries(u.searchParams) as Record<string, string>;

async function handOff(accountId: string, browser = new Browser()) {
  const s = await start();
  const back = await browser.signIn(s.url, accountId);
  return { ...s, back, params: paramsOf(back), browser };
}

async function lastSignIn() {
  return t.db.prisma.signInLog.findFirstOrThrow({ orderBy: { id: 'desc' } });
}

function expectRefused(res: { statusCode: number; body: string; json(): unknown }, code: string, text: string) {
  expect(res.statusCode, res.body).toBe(401);
  expect(res.json()).toMatchObject({ success: false, code, message: text, data: null, homeUrl: '/esm/login' });
}

describe('without OIDC_* configuration (as today)', () => {
  it('no company sign-in offered; the call says it is not configured', async () => {
    const cur = await callApi(plain.app, sessionApi.current);
    expect(cur.json()).toEqual({ success: false, code: '10000007', message: '请先登录', data: null });
    const res = await callApi(plain.app, sessionApi.companyLogin, {});
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('未配置公司门户登录，请使用账号密码登录');
  });

  it('hand-off parameters in the query are ignored', async () => {
    const res = await check({ code: 'abc', state: 'xyz', standardCode: 'S1' }, undefined, plain.app);
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe('10000007');
  });
});

describe('the round trip through the provider', () => {
  it('the login page is told to offer 从公司门户登录', async () => {
    expect((await callApi(t.app, sessionApi.current)).json()).toMatchObject({ code: '10000007', companyLogin: true });
  });

  it('the authorization request carries PKCE (S256), state and nonce; nothing secret reaches the browser', async () => {
    const { url, cookie } = await start();
    const u = new URL(url);
    expect(u.href.startsWith(idp.issuer)).toBe(true);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['code_challenge', 'state', 'nonce']) expect(u.searchParams.get(p)?.length).toBeGreaterThan(20);
    expect(u.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    // the verifier, state and nonce wait in the session row, server-side
    const row = await t.db.prisma.session.findUniqueOrThrow({ where: { sid: sidOf(cookie) } });
    const pending = (row.data as { oidc: { state: string; nonce: string; verifier: string } }).oidc;
    expect(pending.state).toBe(u.searchParams.get('state'));
    expect(pending.nonce).toBe(u.searchParams.get('nonce'));
    expect(pending.verifier.length).toBeGreaterThan(40);
    expect(row.userId).toBeNull();
    // a session waiting for its hand-off is nobody signed in (not 登录超时)
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json().code).toBe('10000007');
  });

  it('an internal user: signed in on a fresh session id, logged, and the session works', async () => {
    const h = await handOff('zhang.demo3');
    expect(h.back.origin + h.back.pathname).toBe(REDIRECT_URI);
    expect(h.params.state).toBeDefined();
    const res = await check({ ...h.params, standardCode: 'GB-1' }, h.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      code: '0',
      data: { account: 'demo3', type: 3, defaultPath: PAGES.dashboard.path },
    });
    const cookie = sessionCookie(res)!;
    expect(sidOf(cookie)).not.toBe(sidOf(h.cookie));
    expect(await t.db.prisma.session.count({ where: { sid: sidOf(h.cookie) } })).toBe(0);
    const row = await t.db.prisma.session.findUniqueOrThrow({ where: { sid: sidOf(cookie) } });
    expect(row.data).toMatchObject({ source: 'oidc' });
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json()).toMatchObject({
      code: '0',
      data: { account: 'demo3' },
    });
    expect((await callApi(t.app, menuApi.roleFunction, {}, cookie)).statusCode).toBe(200);
    expect(await lastSignIn()).toMatchObject({
      account: 'demo3',
      source: 'oidc',
      success: true,
      code: '0',
      ip: '127.0.0.1',
    });
  });

  it('a supplier: type 2 with its supplier, scoped as with a password', async () => {
    const h = await handOff('li.demo2');
    const res = await check(h.params, h.cookie);
    expect(res.json()).toMatchObject({
      code: '0',
      data: { account: 'demo2', type: 2, supplierCode: 'S001', defaultPath: PAGES.dashboardS.path },
    });
    expect((await callApi(t.app, noticesApi.unread, {}, sessionCookie(res)!)).statusCode).toBe(200);
  });
});

describe('back to the page asked for before the sign-in (returnTo)', () => {
  /** A company sign-in started with `returnTo`, completed as `accountId`: the session check's answer. */
  async function signInReturning(returnTo: unknown, accountId: string) {
    const res = await callApi(t.app, sessionApi.companyLogin, { returnTo });
    expect(res.statusCode, res.body).toBe(200);
    const back = await new Browser().signIn(res.json().data.url as string, accountId);
    const done = await check(paramsOf(back), sessionCookie(res)!);
    expect(done.statusCode, done.body).toBe(200);
    return done.json() as { code: string; returnTo?: string };
  }

  it('a page of the user’s own menu comes back once, with its query', async () => {
    const answer = await signInReturning(`${PAGES.noticeList.path}?tab=changes`, 'li.demo2');
    expect(answer).toMatchObject({ code: '0', returnTo: `${PAGES.noticeList.path}?tab=changes` });
  });

  it('another type’s page, another site or the login page do not: the type’s landing page instead', async () => {
    for (const returnTo of [
      PAGES.changeNoticeList.path,
      '//evil.example/esm/',
      'https://evil.example/esm/x',
      '/esm/login?redirect=/esm/x',
      '/esm/\\evil',
      undefined,
    ]) {
      const answer = await signInReturning(returnTo, 'li.demo2');
      expect(answer.code).toBe('0');
      expect(answer.returnTo, String(returnTo)).toBeUndefined();
    }
  });

  it('a returnTo that is not text, or too long, is a field message and starts nothing', async () => {
    for (const returnTo of [42, `/esm/${'x'.repeat(1000)}`]) {
      const res = await callApi(t.app, sessionApi.companyLogin, { returnTo });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ field: 'returnTo' })]);
    }
  });
});

describe('a bad hand-off: 202 登录错误, nobody signed in, logged', () => {
  it('tampered state', async () => {
    const h = await handOff('zhang.demo3');
    const res = await check({ ...h.params, state: `${h.params.state}x` }, h.cookie);
    expectRefused(res, '202', '登录错误');
    expect(sessionCookie(res)).toBeUndefined();
    expect(await t.db.prisma.session.count({ where: { sid: sidOf(h.cookie) } })).toBe(0);
    expect(await lastSignIn()).toMatchObject({
      source: 'oidc',
      success: false,
      code: '202',
      reason: expect.stringContaining('state'),
    });
    // the pending session's cookie is cleared: afterwards the browser is simply not signed in
    const cleared = res.cookies.find((c) => c.name === 'esm_sid');
    expect(cleared?.value).toBe('');
    expect((await callApi(t.app, sessionApi.current)).json().code).toBe('10000007');
  });

  it('a hand-off without the session that started it (another browser)', async () => {
    const h = await handOff('zhang.demo3');
    expectRefused(await check(h.params), '202', '登录错误');
  });

  it('the same hand-off twice: the second is refused', async () => {
    const h = await handOff('zhang.demo3');
    const first = await check(h.params, h.cookie);
    expect(first.json().code).toBe('0');
    expectRefused(await check(h.params, h.cookie), '202', '登录错误');
    // with the signed-in session's cookie too: a replay never signs in again
    expectRefused(await check(h.params, sessionCookie(first)), '202', '登录错误');
  });

  it('the same hand-off sent twice at once: exactly one sign-in', async () => {
    const h = await handOff('zhang.demo3');
    const answers = await Promise.all([
      check(h.params, h.cookie),
      check(h.params, h.cookie),
      check(h.params, h.cookie),
    ]);
    expect(answers.map((r) => r.json().code).sort()).toEqual(['0', '202', '202']);
  });

  it('a replayed code: the provider honours a code once', async () => {
    const browser = new Browser();
    const h = await handOff('zhang.demo3', browser);
    expect((await check(h.params, h.cookie)).json().code).toBe('0');
    // a new sign-in's own state, with the code already redeemed
    const again = await start();
    const state = new URL(again.url).searchParams.get('state')!;
    const res = await check({ ...h.params, state }, again.cookie);
    expectRefused(res, '202', '登录错误');
    expect(await lastSignIn()).toMatchObject({
      account: '',
      reason: '登录回传校验失败：授权码无效或已使用（invalid_grant）',
    });
  });

  it('an expired code (the provider refuses it)', async () => {
    const h = await handOff('zhang.demo3');
    idp.expireCodes();
    expectRefused(await check(h.params, h.cookie), '202', '登录错误');
    expect(await lastSignIn()).toMatchObject({
      account: '',
      reason: '登录回传校验失败：授权码无效或已使用（invalid_grant）',
    });
  });

  it('a hand-off older than the portal waits for (10 minutes)', async () => {
    const h = await handOff('zhang.demo3');
    const sid = sidOf(h.cookie);
    await t.db.prisma.$executeRawUnsafe(
      `UPDATE http_session SET data = jsonb_set(data, '{oidc,at}', to_jsonb(($1)::bigint)) WHERE sid = $2`,
      Date.now() - 11 * 60_000,
      sid,
    );
    expectRefused(await check(h.params, h.cookie), '202', '登录错误');
    expect((await lastSignIn()).reason).toBe('登录回传已过期');
  });

  it('the provider answers with an error (the user cancelled)', async () => {
    const s = await start();
    const state = new URL(s.url).searchParams.get('state')!;
    expectRefused(
      await check({ error: 'access_denied', error_description: 'End-User aborted interaction', state }, s.cookie),
      '202',
      '登录错误',
    );
    expect((await lastSignIn()).reason).toBe(
      '身份提供方拒绝登录：用户取消了登录，或身份提供方拒绝了登录（access_denied）',
    );
  });

  it('an identity without the account claim: the reason names the provider’s user', async () => {
    const h = await handOff('qian.noaccount');
    expectRefused(await check(h.params, h.cookie), '202', '登录错误');
    expect(await lastSignIn()).toMatchObject({
      account: '',
      reason: '身份提供方未给出账号（声明 preferred_username），其用户标识为 qian.noaccount',
    });
  });

  it('the provider’s userinfo failing after its ID token named the user: logged with the account, in Chinese', async () => {
    const h = await handOff('zhang.demo3');
    idp.failUserinfo('invalid_token');
    try {
      expectRefused(await check(h.params, h.cookie), '202', '登录错误');
    } finally {
      idp.failUserinfo(undefined);
    }
    expect(await lastSignIn()).toMatchObject({
      account: 'demo3',
      success: false,
      code: '202',
      reason: '读取身份提供方的用户信息失败：访问令牌无效（invalid_token）',
    });
  });

  it('every refusal of a hand-off is logged in Chinese: English only as the code in brackets', async () => {
    const rows = await t.db.prisma.signInLog.findMany({ where: { source: 'oidc', success: false } });
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      // what is left once the bracketed codes and the names of claims, users and settings are taken out
      const prose = r.reason.replace(/（[^）]*）/g, '').replace(/[\w.@-]+/g, (w) => (/[_.\d]/.test(w) ? '' : w));
      expect(prose, r.reason).not.toMatch(/[A-Za-z]{3,}/);
    }
  });
});

describe('the identity does not map to a usable portal user', () => {
  it('unknown account → 205 没有权限', async () => {
    const h = await handOff('wang.nobody');
    expectRefused(await check(h.params, h.cookie), '205', '没有权限');
    expect(await lastSignIn()).toMatchObject({ account: 'no-portal-account', success: false, code: '205' });
    expect(await t.db.prisma.user.count({ where: { account: 'no-portal-account' } })).toBe(0);
  });

  it('disabled account → 203 登录失效', async () => {
    const u = await createUser(t.db, { type: 3, prefix: 'oidc' });
    created.push(u.account);
    await t.db.prisma.user.update({ where: { id: u.id }, data: { enabled: false } });
    idp.accounts['disabled.one'] = { preferred_username: u.account, esm_user_type: 3 };
    const h = await handOff('disabled.one');
    expectRefused(await check(h.params, h.cookie), '203', '登录失效');
    expect(await lastSignIn()).toMatchObject({ userId: u.id, code: '203', reason: '账号已停用' });
  });

  it('wrong user type → 204 登录失效', async () => {
    const h = await handOff('zhao.wrongtype');
    expectRefused(await check(h.params, h.cookie), '204', '登录失效');
    expect((await lastSignIn()).reason).toContain('用户类型不符');
  });

  it('a supplier claimed for another supplier → 204', async () => {
    idp.accounts['li.other'] = { preferred_username: 'demo2', esm_user_type: 2, esm_supplier_code: 'S002' };
    const h = await handOff('li.other');
    expectRefused(await check(h.params, h.cookie), '204', '登录失效');
  });

  it('with OIDC_CREATE_USERS: created on first sign-in from the claims (type, supplier); a bad claim → 204', async () => {
    const made = await buildTestApp({ db: t.db, config: oidcConfig({ createUsers: true }) });
    try {
      const account = `oidc_new_${Date.now().toString(36)}`;
      created.push(account);
      idp.accounts['new.supplier'] = {
        preferred_username: account,
        name: '新供应商用户',
        esm_user_type: 4,
        esm_supplier_code: 'S002',
      };
      const s = await start(made.app);
      const back = await new Browser().signIn(s.url, 'new.supplier');
      const res = await check(paramsOf(back), s.cookie, made.app);
      expect(res.json()).toMatchObject({
        code: '0',
        data: { account, type: 4, supplierCode: 'S002', name: '新供应商用户' },
      });
      // no usable password: the form does not open this account
      expect((await callApi(made.app, sessionApi.login, { account, password: '' + 'x' })).statusCode).toBe(401);

      idp.accounts['new.bad'] = { preferred_username: `${account}_b`, esm_user_type: 2, esm_supplier_code: 'NOPE' };
      const s2 = await start(made.app);
      const back2 = await new Browser().signIn(s2.url, 'new.bad');
      expectRefused(await check(paramsOf(back2), s2.cookie, made.app), '204', '登录失效');
      expect(await t.db.prisma.user.count({ where: { account: `${account}_b` } })).toBe(0);
    } finally {
      await made.close();
    }
  });
});

describe('logout', () => {
  it('a company sign-in signs out at the provider too, which returns to the company home page', async () => {
    const browser = new Browser();
    const h = await handOff('zhang.demo3', browser);
    const cookie = sessionCookie(await check(h.params, h.cookie))!;
    const res = await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie);
    expect(res.statusCode).toBe(200);
    const target = new URL(res.json().data!.redirectUrl);
    const discovery = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    expect(target.origin + target.pathname).toBe(discovery.end_session_endpoint);
    expect(target.searchParams.get('post_logout_redirect_uri')).toBe(HOME);
    expect(target.searchParams.get('id_token_hint')?.split('.')).toHaveLength(3);
    expect(await t.db.prisma.session.count({ where: { sid: sidOf(cookie) } })).toBe(0);

    // the browser reaches the provider's end-session endpoint and confirms
    const page = await browser.go(target);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
    const done = await browser.go(new URL(action, target), { method: 'POST', form: { xsrf, logout: 'yes' } });
    expect((await browser.follow(done, target.href)).href).toBe(HOME);
    // signed out at the provider: the next sign-in asks for the login again
    const s = await start();
    const next = await browser.follow(await browser.go(s.url), s.url);
    expect(next.href.startsWith(`${idp.issuer}/interaction/`)).toBe(true);
  });

  it('a password session logs out as before (no provider involved)', async () => {
    const cookie = await login(t.app, 'demo3');
    expect((await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie)).json()).toMatchObject({
      success: true,
      data: null,
    });
  });
});

describe('the sign-in log covers the password form too', () => {
  it('a success and a refusal, with source and address', async () => {
    await login(t.app, 'demo8');
    expect(await lastSignIn()).toMatchObject({ account: 'demo8', source: 'password', success: true, code: '10000000' });
    await callApi(t.app, sessionApi.login, { account: 'demo8', password: 'wrong' }, undefined, {
      remoteAddress: '10.60.0.9',
    });
    expect(await lastSignIn()).toMatchObject({
      account: 'demo8',
      source: 'password',
      success: false,
      code: '10000001',
      ip: '10.60.0.9',
      reason: '密码错误',
    });
    await t.db.prisma.loginAttempt.deleteMany({ where: { ip: '10.60.0.9' } });
  });
});

describe('logout while other requests are in flight (rolling sessions)', () => {
  it('their answers never hand the destroyed session cookie back; the next check is the login page, not 登录超时', async () => {
    const cookie = await login(plain.app, 'demo3');
    const client = new pg.Client({ connectionString: testDatabaseUrl() });
    await client.connect();
    try {
      // hold the menu call inside its handler (after it read the session) until the logout is done
      await client.query('BEGIN');
      await client.query('LOCK TABLE menu_entry IN ACCESS EXCLUSIVE MODE');
      const inFlight = callApi(plain.app, menuApi.roleFunction, {}, cookie);
      await expect
        .poll(
          async () =>
            (
              await client.query(
                `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE c.relname = 'menu_entry' AND NOT l.granted`,
              )
            ).rows[0].n,
        )
        .toBeGreaterThan(0);
      const out = await callApi(plain.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie);
      expect(out.statusCode).toBe(200);
      await client.query('COMMIT');
      const late = await inFlight;
      expect(late.statusCode).toBe(200);
      // the browser applies the logout's answer, then the late one: no esm_sid comes back
      expect(late.cookies.filter((c) => c.name === 'esm_sid' && c.value)).toEqual([]);
      const jar = sessionCookie(late) ?? undefined;
      expect((await callApi(plain.app, sessionApi.current, undefined, jar)).json().code).toBe('10000007');
    } finally {
      await client.end();
    }
  });

  it('a request that renews the session (a write) still sends the cookie; one after the row is gone does not', async () => {
    const cookie = await login(plain.app, 'demo3');
    const sid = sidOf(cookie);
    // less than an idle period left: the next request rewrites the row and renews the cookie
    await t.db.prisma.$executeRawUnsafe(
      `UPDATE http_session SET data = jsonb_set(data, '{_exp}', to_jsonb(($1)::bigint)) WHERE sid = $2`,
      Date.now() + 60_000,
      sid,
    );
    const renewed = await callApi(plain.app, menuApi.roleFunction, {}, cookie);
    expect(sessionCookie(renewed)).toBe(cookie);
    // an ordinary request: nothing written, no cookie
    expect(sessionCookie(await callApi(plain.app, menuApi.roleFunction, {}, cookie))).toBeUndefined();
  });
});
