/**
 * Server-side authorization: every registered api route × (no session + the 8
 * user types) gets the outcome its declared access promises. The routes come from
 * app.apiRoutes, so a route is covered the day it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, API_BASE, sessionApi, visitsApi } from '@esm/contracts';
import { buildTestApp, callApi, hasChinese, login, post, unchecked } from './helpers.ts';

const TYPES = [2, 3, 4, 5, 6, 7, 8, 9] as const;
const t = await buildTestApp();
const cookies = new Map<number, string>();

beforeAll(async () => {
  for (const type of TYPES) cookies.set(type, await login(t.app, `demo${type}`));
});
afterAll(async () => {
  await t.close();
});

/** Whether the cookie of `type` still names a live session (a walked logout ends it). */
async function ensureSignedIn(type: number) {
  const res = await callApi(t.app, sessionApi.current, undefined, cookies.get(type));
  if (res.json().code !== '0') cookies.set(type, await login(t.app, `demo${type}`));
}

async function call(route: { method: string; url: string }, cookie?: string) {
  const url = route.url.replace(/:(\w+)/g, '1');
  const hasPayload = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
  return t.app.inject({
    method: route.method as 'POST',
    url,
    ...(hasPayload ? { payload: {} } : {}),
    headers: cookie ? { cookie } : {},
  });
}

describe('the route table', () => {
  it('lists the api routes with a valid access declaration', () => {
    const urls = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /esm-server/api/user/current',
      'POST /esm-server/api/user/login',
      'POST /esm-server/api/user/logout',
      'POST /esm-server/api/main/getRoleFunction',
      'POST /esm-server/api/main/visit',
      'POST /esm-server/api/haier/visitLog/page',
    ]) {
      expect(urls).toContain(known);
    }
    for (const r of t.app.apiRoutes) {
      expect(r.url.startsWith('/esm-server/api/')).toBe(true);
      if (Array.isArray(r.access)) {
        expect(r.access.length, r.url).toBeGreaterThan(0);
        for (const type of r.access) expect(TYPES).toContain(type);
      } else {
        expect(['public', 'session']).toContain(r.access);
      }
    }
  });

  it('registers every call declared in contracts, once, with the declared access — and nothing undeclared', () => {
    const declared = ALL_ENDPOINTS.map((e) => `POST ${API_BASE}/${e.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    const registered = t.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    expect([...registered].sort()).toEqual([...declared].sort());
    for (const e of ALL_ENDPOINTS)
      expect(t.app.apiRoutes.find((r) => r.url === `${API_BASE}/${e.path}`)?.access, e.path).toEqual(e.access);
  });

  it('manufacturer (haier/) routes are never open to suppliers, supplier/ routes never to internal users', () => {
    for (const r of t.app.apiRoutes) {
      if (r.url.startsWith('/esm-server/api/haier/')) {
        expect(Array.isArray(r.access), `${r.url} must list its user types`).toBe(true);
        expect(r.access).not.toContain(2);
        expect(r.access).not.toContain(4);
      }
      if (r.url.startsWith('/esm-server/api/supplier/')) {
        expect(Array.isArray(r.access), `${r.url} must list its user types`).toBe(true);
        for (const type of r.access as number[]) expect([2, 4]).toContain(type);
      }
    }
  });

  it('an unknown api path is a 404 envelope', async () => {
    const res = await post(t.app, 'no/such/route', {}, cookies.get(3));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: '404', data: null });
    expect(hasChinese(res.json().message)).toBe(true);
  });
});

describe.each(t.app.apiRoutes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s', (_name, route) => {
  it('without a session', async () => {
    const res = await call(route);
    expect(res.statusCode).toBeLessThan(500);
    if (route.access === 'public') return;
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ success: false, code: '10000007', data: null });
  });

  it.each(TYPES)('as user type %i', async (type) => {
    await ensureSignedIn(type);
    const res = await call(route, cookies.get(type));
    expect(res.statusCode, res.body).toBeLessThan(500);
    if (route.access === 'public') return;
    const allowed = route.access === 'session' || route.access.includes(type);
    if (allowed) {
      expect([401, 403], res.body).not.toContain(res.statusCode);
    } else {
      expect(res.statusCode, res.body).toBe(403);
      const body = res.json();
      expect(body).toMatchObject({ success: false, code: '403', data: null });
      expect(hasChinese(body.message)).toBe(true);
      // Refused before validation: the caller learns nothing about the body.
      expect(body.errors).toBeUndefined();
    }
  });
});

describe('internal-only route haier/visitLog/page', () => {
  it.each([2, 4, 5, 6])('type %i gets 403', async (type) => {
    await ensureSignedIn(type);
    const res = await callApi(t.app, visitsApi.page, { page: 1, results: 10 }, cookies.get(type));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: '403', message: '您没有权限使用该功能', data: null });
  });

  it('a refused caller sending a bad body still gets 403, not the validation message', async () => {
    await ensureSignedIn(2);
    const res = await callApi(t.app, visitsApi.page, unchecked({ page: -1, sortField: 'password' }), cookies.get(2));
    expect(res.statusCode).toBe(403);
  });

  it.each([3, 7, 8, 9])('type %i gets 200 with a page', async (type) => {
    await ensureSignedIn(type);
    const res = await callApi(t.app, visitsApi.page, { page: 1, results: 10 }, cookies.get(type));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Array.isArray(body.data)).toBe(true);
    expect(typeof body.total).toBe('number');
  });
});
