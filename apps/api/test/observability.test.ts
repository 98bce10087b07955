/**
 * What an operator sees: the metrics endpoint (refused to strangers, counting what was just
 * asked), request ids (unique across instances, on every answer, a proxy's only when the proxy is
 * trusted) and the request's log line naming the id and the signed-in account.
 */
import { sessionApi, visitsApi, filesApi, API_BASE } from '@esm/contracts';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.ts';
import { buildApp } from '../src/app.ts';
import { METRICS_PATH } from '../src/plugins/observability.ts';
import {
  DEMO_PASSWORD,
  api,
  buildTestApp,
  hasChinese,
  login,
  openTestDatabase,
  post,
  testConfig,
  type TestApp,
  callApi,
} from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, sampleDxf, tempStorage } from './factories.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const db = await openTestDatabase();
const apps: Pick<TestApp, 'close'>[] = [];
/** An instance over the file's one database (each test configures its own). */
async function app(config: Partial<Config> = {}): Promise<FastifyInstance> {
  const t = await buildTestApp({ config, db });
  apps.push(t);
  return t.app;
}
afterAll(async () => {
  for (const t of apps) await t.close();
  await db.close();
});

const scrape = (
  a: FastifyInstance,
  opts: { remoteAddress?: string; token?: string; headers?: Record<string, string> } = {},
) =>
  a.inject({
    method: 'GET',
    url: METRICS_PATH,
    ...(opts.remoteAddress ? { remoteAddress: opts.remoteAddress } : {}),
    headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
  });

/** The value of one series in Prometheus' text format (0 when it has not appeared yet). */
function valueOf(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...inner.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('the metrics endpoint', () => {
  it('METRICS_ALLOW and METRICS_TOKEN: a setting that cannot work stops the start, naming the variable', () => {
    const env = { SESSION_SECRET: 'x'.repeat(32) };
    expect(loadConfig(env)).toMatchObject({ metricsAllow: ['loopback'], metricsToken: undefined });
    expect(loadConfig({ ...env, METRICS_ALLOW: '10.0.0.7, 172.18.0.0/16', METRICS_TOKEN: TOKEN })).toMatchObject({
      metricsAllow: ['10.0.0.7', '172.18.0.0/16'],
      metricsToken: TOKEN,
    });
    expect(loadConfig({ ...env, METRICS_ALLOW: 'none' }).metricsAllow).toEqual([]);
    expect(() => loadConfig({ ...env, METRICS_ALLOW: 'prometheus.internal' })).toThrow(
      /METRICS_ALLOW: not an IP address or CIDR: prometheus.internal/,
    );
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16 characters/,
    );
  });

  it('refuses a stranger: another address, no token or a wrong one — 403 in the envelope', async () => {
    const a = await app({ metricsAllow: ['10.1.0.0/16'], metricsToken: TOKEN });
    for (const res of [
      await scrape(a, { remoteAddress: '203.0.113.9' }),
      await scrape(a, { remoteAddress: '203.0.113.9', token: 'not-the-token-0123456789' }),
      await scrape(a, { remoteAddress: '203.0.113.9', headers: { authorization: TOKEN } }), // not as a bearer token
      await scrape(a, { remoteAddress: '127.0.0.1' }), // loopback is not on this list
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ success: false, code: '403', data: null });
      expect(hasChinese(res.json().message)).toBe(true);
      expect(res.body).not.toContain('esm_http_requests_total');
    }
  });

  it('answers an allowed address, or anyone with the token', async () => {
    const a = await app({ metricsAllow: ['10.1.0.0/16'], metricsToken: TOKEN });
    for (const res of [
      await scrape(a, { remoteAddress: '10.1.2.3' }),
      await scrape(a, { remoteAddress: '203.0.113.9', token: TOKEN }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toContain('# TYPE esm_http_requests_total counter');
    }
  });

  it('with nothing configured, answers this host only', async () => {
    const a = await app(); // METRICS_ALLOW and METRICS_TOKEN unset
    expect((await scrape(a, { remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
    expect((await scrape(a, { remoteAddress: '::1' })).statusCode).toBe(200);
    expect((await scrape(a, { remoteAddress: '192.168.1.20' })).statusCode).toBe(403);
  });

  it('believes the client address a trusted proxy names: a stranger behind the local proxy is refused', async () => {
    const a = await app({ trustProxy: ['127.0.0.1'] });
    const res = await scrape(a, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.statusCode).toBe(403);
    // …and an untrusted peer cannot pretend to be local
    const b = await app({});
    expect(
      (await scrape(b, { remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode,
    ).toBe(403);
  });

  it('counts a request just made, under its route pattern and status', async () => {
    const a = await app({});
    const series = { method: 'POST', route: `${API_BASE}/${sessionApi.current.path}`, status: '200' };
    const before = valueOf((await scrape(a)).body, 'esm_http_requests_total', series);
    await callApi(a, sessionApi.current, {});
    const after = (await scrape(a)).body;
    expect(valueOf(after, 'esm_http_requests_total', series)).toBe(before + 1);
    expect(valueOf(after, 'esm_http_request_duration_seconds_count', series)).toBeGreaterThanOrEqual(before + 1);
    // an unknown address is one series, not one per URL
    await a.inject({ method: 'GET', url: '/esm-server/nothing-here-12345' });
    const text = (await scrape(a)).body;
    expect(text).not.toContain('nothing-here-12345');
    expect(valueOf(text, 'esm_http_requests_total', { route: 'not_found', status: '404' })).toBeGreaterThan(0);
  });

  it('counts a refused sign-in by its reason', async () => {
    const a = await app({});
    const series = { reason: 'bad_credentials' };
    const before = valueOf((await scrape(a)).body, 'esm_login_refusals_total', series);
    const res = await callApi(a, sessionApi.login, { account: 'demo3', password: `${DEMO_PASSWORD}-wrong` }, undefined);
    expect(res.statusCode).toBe(401);
    expect(valueOf((await scrape(a)).body, 'esm_login_refusals_total', series)).toBe(before + 1);
  });

  it('counts the bytes of a file sent, by action', async () => {
    const files = await tempStorage();
    try {
      const t = await buildTestApp({ db, storage: files.storage });
      apps.push(t);
      const line = await createProductLine(db.prisma);
      const material = await createMaterial(db.prisma, line.code);
      const file = await createFileVersion(db.prisma, files.storage, {
        materialCode: material.code,
        type: 'dxf',
        bytes: sampleDxf(),
      });
      const before = valueOf((await scrape(t.app)).body, 'esm_file_bytes_served_total', { action: 'download' });
      const res = await callApi(t.app, filesApi.download, { id: file.id }, await login(t.app, 'demo3'));
      expect(res.statusCode, res.body).toBe(200);
      expect(valueOf((await scrape(t.app)).body, 'esm_file_bytes_served_total', { action: 'download' })).toBe(
        before + res.rawPayload.byteLength,
      );
    } finally {
      await files.remove();
    }
  });

  it("shows the database pool's connections and the event loop's lag", async () => {
    const a = await app({});
    await callApi(a, sessionApi.current, {});
    const text = (await scrape(a)).body;
    expect(valueOf(text, 'esm_db_pool_connections', { pool: 'main', state: 'total' })).toBeGreaterThan(0);
    expect(text).toMatch(/^esm_db_pool_connections\{pool="main",state="waiting"\} \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});

describe('request ids', () => {
  it('are UUIDs, unique across two instances (replicas), on every answer', async () => {
    const [a, b] = [await app({}), await app({})];
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      for (const x of [a, b]) ids.push(String((await callApi(x, sessionApi.current, {})).headers['x-request-id']));
    }
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are echoed on errors, not-found answers, static files and framework refusals', async () => {
    const a = await app({});
    const answers = [
      await callApi(a, visitsApi.page, { page: 1 }), // 401: nobody signed in
      await post(a, 'no/such/route', {}), // 404 of the api
      await a.inject({ method: 'GET', url: '/esm/assets/no-such-file.js' }), // static 404
      await a.inject({ method: 'GET', url: '/esm/login' }), // the SPA's page (or 503 without a build)
      await a.inject({
        method: 'POST',
        url: api(sessionApi.login.path),
        headers: { 'content-type': 'application/json' },
        payload: '{"account":',
      }), // bad JSON
      await a.inject({ method: 'GET', url: '/esm-server/%E0%A4%A' }), // a URL Fastify cannot decode
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([401, 404, 404, expect.any(Number), 400, 400]);
    for (const res of answers) expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it("take a trusted proxy's X-Request-Id, and nobody else's", async () => {
    const a = await app({ trustProxy: ['10.0.0.5'] });
    const idOf = async (remoteAddress: string, id: string) =>
      (
        await a.inject({
          method: 'POST',
          url: api(sessionApi.current.path),
          payload: {},
          remoteAddress,
          headers: { 'x-request-id': id },
        })
      ).headers['x-request-id'];
    expect(await idOf('10.0.0.5', 'proxy-4f9c2e7a1b3d')).toBe('proxy-4f9c2e7a1b3d');
    expect(await idOf('10.0.0.6', 'proxy-4f9c2e7a1b3d')).toMatch(UUID);
    // from the trusted proxy too, an id that could split a log line or a header is replaced
    expect(await idOf('10.0.0.5', 'a b')).toMatch(UUID);
    expect(await idOf('10.0.0.5', 'x'.repeat(129))).toMatch(UUID);
    // no proxy trusted: the header is a client's word
    const b = await app({});
    expect(
      (await callApi(b, sessionApi.current, {}, undefined, { headers: { 'x-request-id': 'client-chosen-id-1' } }))
        .headers['x-request-id'],
    ).toMatch(UUID);
  });

  it("the answer's id is the one in the request's log line, which names the signed-in account — never its cookie or password", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const a = await buildApp({
      config: testConfig({ logLevel: 'info' }),
      db: db.prisma,
      dbKind: 'postgres',
      logger: { level: 'info', stream },
    });
    apps.push({ close: () => a.close() });
    await a.ready();
    const cookie = await login(a, 'demo3');
    const res = await callApi(a, sessionApi.current, {}, cookie, {
      headers: { 'x-client-request-id': 'page-7d1e0c55' },
    });
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === id);
    const completed = mine.find((l) => l.msg === 'request completed');
    expect(completed).toMatchObject({
      reqId: id,
      account: 'demo3',
      userType: 3,
      clientReqId: 'page-7d1e0c55',
      res: { statusCode: 200 },
    });
    const all = lines.join('\n');
    expect(all).not.toContain(DEMO_PASSWORD);
    expect(all).not.toContain(cookie.replace(/^esm_sid=/, ''));
  });
});
