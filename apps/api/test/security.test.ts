/**
 * Browser-facing defences and framework answers: the client address behind proxies
 * (logs and watermarks carry it), cross-site requests, security headers, every framework and
 * static-file refusal in the envelope in Chinese, and the API documentation behind an
 * internal sign-in.
 */
import { filesApi, menuApi, sessionApi, API_BASE, PAGES, archivesApi } from '@esm/contracts';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { errorsPlugin, frameworkErrorOptions } from '../src/plugins/errors.ts';
import { securityPlugin } from '../src/plugins/security.ts';
import { webPlugin } from '../src/plugins/web.ts';
import {
  api,
  buildTestApp,
  hasChinese,
  login,
  testConfig,
  type TestApp,
  callApi,
  LEGACY_LOGOUT_BODY,
  unchecked,
} from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, samplePdf, tempStorage } from './factories.ts';

const files = await tempStorage();
let t: TestApp;
let staff: string;
let supplier: string;
let pdfId: number;

beforeAll(async () => {
  t = await buildTestApp({ storage: files.storage });
  const pl = await createProductLine(t.db.prisma);
  const m = await createMaterial(t.db.prisma, pl.code);
  pdfId = (
    await createFileVersion(t.db.prisma, files.storage, {
      materialCode: m.code,
      type: 'pdf',
      bytes: await samplePdf(1),
    })
  ).id;
  staff = await login(t.app, 'demo3');
  supplier = await login(t.app, 'demo2');
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

function expectEnvelope(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number) {
  expect(res.statusCode, res.body).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/application\/json/);
  const body = JSON.parse(res.body);
  expect(body).toMatchObject({ success: false, code: expect.any(String), data: null });
  expect(hasChinese(body.message), body.message).toBe(true);
  expect(body.message).not.toMatch(/FST_|Forbidden|Bad Request|Not Found|Exceeded|Client Error/);
  return body;
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const content = await (await pdf.getPage(1)).getTextContent();
  await pdf.destroy();
  return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
}

// ----------------------------------------------------------------------------------------------------

describe('the address that logs and watermarks carry', () => {
  it('X-Forwarded-For from a client that is not a trusted proxy is ignored: log row and watermark name the real peer', async () => {
    const proxied = await buildTestApp({ db: t.db, storage: files.storage, config: { trustProxy: ['10.60.0.1'] } });
    try {
      const cookie = await login(proxied.app, 'demo8');
      const direct = await callApi(proxied.app, filesApi.download, { id: pdfId }, cookie, {
        headers: { 'x-forwarded-for': '8.8.8.8' },
        remoteAddress: '10.60.0.9',
      });
      expect(direct.statusCode).toBe(200);
      const text = await pdfText(direct.rawPayload);
      expect(text).toContain('10.60.0.9');
      expect(text).not.toContain('8.8.8.8');
      const viaProxy = await callApi(proxied.app, filesApi.download, { id: pdfId }, cookie, {
        headers: { 'x-forwarded-for': '8.8.8.8, 198.51.100.23' },
        remoteAddress: '10.60.0.1',
      });
      expect(viaProxy.statusCode).toBe(200);
      expect(await pdfText(viaProxy.rawPayload)).toContain('198.51.100.23');
      const demo8 = await t.db.prisma.user.findUniqueOrThrow({ where: { account: 'demo8' } });
      const rows = await t.db.prisma.accessLog.findMany({
        where: { userId: demo8.id, fileId: pdfId },
        orderBy: { id: 'asc' },
        select: { ip: true },
      });
      expect(rows.map((r) => r.ip)).toEqual(['10.60.0.9', '198.51.100.23']);
    } finally {
      await proxied.close();
    }
  });
});

// ----------------------------------------------------------------------------------------------------

describe('cross-site requests are refused', () => {
  function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer }) {
    const boundary = '----esm-security-test';
    const parts = Object.entries(fields).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
    );
    const body = Buffer.concat([
      Buffer.from(parts.join('')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { body, contentType: `multipart/form-data; boundary=${boundary}` };
  }

  it('a multipart upload with a signed-in cookie from another origin: 403 in Chinese, nothing stored', async () => {
    const pl = await createProductLine(t.db.prisma);
    const m = await createMaterial(t.db.prisma, pl.code);
    const standardCode = `Q/XSITE-${Date.now()}`;
    const { body, contentType } = multipart(
      {
        standardCode,
        name: '跨站上传',
        version: 'V1.0',
        materialCode: m.code,
        category: 'DRAWING',
        secretLevel: 'SECRET',
        effectiveDate: '2026-01-01',
      },
      { name: 'evil.pdf', bytes: Buffer.from(await samplePdf(1)) },
    );
    for (const headers of [
      { origin: 'http://evil.example' },
      { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' },
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: api(archivesApi.upload.path),
        payload: body,
        headers: { cookie: staff, 'content-type': contentType, ...headers },
      });
      expect(expectEnvelope(res, 403).message).toBe('已拒绝跨站请求：请在本站页面中操作');
    }
    expect(await t.db.prisma.standardFile.count({ where: { standardCode } })).toBe(0);
  });

  it('a cross-origin text/plain logout is refused and the session lives on; the same logout from our page works', async () => {
    const cookie = await login(t.app, 'demo9');
    const evil = await t.app.inject({
      method: 'POST',
      url: api(sessionApi.logout.path),
      payload: 'a=1',
      headers: { cookie, 'content-type': 'text/plain', origin: 'http://evil.example' },
    });
    expectEnvelope(evil, 403);
    expect((await callApi(t.app, sessionApi.current, undefined, cookie)).json().code).toBe('0');
    const ours = await callApi(t.app, sessionApi.logout, LEGACY_LOGOUT_BODY, cookie, {
      headers: { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' },
    });
    expect(ours.statusCode).toBe(200);
  });

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['Origin of another site (an old browser)', { origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['Origin of our host on another port', { origin: 'http://localhost:8080' }],
  ])('%s → 403', async (_label, headers) => {
    expectEnvelope(await callApi(t.app, menuApi.roleFunction, {}, staff, { headers }), 403);
  });

  it.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (typed by the user)', { 'sec-fetch-site': 'none' }],
    ['Origin of our own host', { origin: 'http://localhost:80' }],
    ['neither header (not a browser)', {}],
  ])('%s → allowed', async (_label, headers) => {
    const res = await callApi(t.app, menuApi.roleFunction, {}, staff, {
      headers: { host: 'localhost:80', ...headers },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('reads (GET) are not state-changing: a cross-site GET of health is answered', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: '/esm-server/health', headers: { 'sec-fetch-site': 'cross-site' } }))
        .statusCode,
    ).toBe(200);
  });
});

// ----------------------------------------------------------------------------------------------------

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain("'unsafe-eval'");
  expect(csp).toContain("object-src 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['x-powered-by']).toBeUndefined();
}

describe('security headers', () => {
  it('API JSON: the headers and no-store', async () => {
    const res = await callApi(t.app, menuApi.roleFunction, {}, staff);
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res.headers);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('refusals, 404s, the page shell and a served file carry them too', async () => {
    const refused = await callApi(t.app, menuApi.roleFunction, {});
    expectSecurityHeaders(refused.headers);
    expect(refused.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/no/such/page' })).headers);
    expectSecurityHeaders((await t.app.inject({ method: 'GET', url: '/esm/login' })).headers);
    const file = await callApi(t.app, filesApi.view, { id: pdfId }, staff);
    expect(file.statusCode).toBe(200);
    expectSecurityHeaders(file.headers);
    expect(file.headers['cache-control']).toBe('no-store');
  });

  it('HSTS only behind HTTPS (SECURE_COOKIES), with upgrade-insecure-requests', async () => {
    const secure = await buildTestApp({ db: t.db, config: { secureCookies: true } });
    try {
      const res = await secure.app.inject({ method: 'GET', url: '/esm-server/health' });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});

// ----------------------------------------------------------------------------------------------------

/** The real plugins over a small built "SPA" of the test's own (the repo's build may not exist). */
async function webApp(): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const dist = await mkdtemp(path.join(tmpdir(), 'esm-web-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>ESM</title>');
  await writeFile(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
  // as apps/web's build writes them beside every asset (vite-plugin-compression2)
  await writeFile(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
  await writeFile(path.join(dist, 'assets', 'app.js.gz'), gzipSync('console.log(1)'));
  const app = Fastify({ ...frameworkErrorOptions, logger: false });
  await app.register(errorsPlugin);
  await app.register(securityPlugin, { config: testConfig(), apiPrefix: '/esm-server/' });
  app.get('/esm-server/api/thing/:id', { config: { access: 'public' } }, async () => ({ ok: true }));
  await app.register(webPlugin, { webDist: dist });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await rm(dist, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP exchange on a real socket (what app.inject cannot send). */
async function raw(app: FastifyInstance, request: string): Promise<{ status: number; headers: string; body: string }> {
  const address = app.server.address() as net.AddressInfo;
  const socket = net.connect(address.port, '127.0.0.1');
  socket.write(request);
  const chunks: Buffer[] = [];
  for await (const c of socket) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]), headers: head, body };
}

describe('every refusal in the envelope, in Chinese', () => {
  let w: Awaited<ReturnType<typeof webApp>>;
  beforeAll(async () => {
    w = await webApp();
    await w.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => w.close());

  it('the SPA is still served', async () => {
    const res = await w.app.inject({ method: 'GET', url: '/esm/assets/app.js' });
    expect(res.statusCode).toBe(200);
    expectSecurityHeaders(res.headers);
  });

  it('hashed assets are cached for a year, immutable; index.html is revalidated', async () => {
    expect((await w.app.inject({ method: 'GET', url: '/esm/assets/app.js' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    for (const url of ['/esm/', '/esm/login', PAGES.changeNoticeList.path])
      expect((await w.app.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-cache');
  });

  it('a page answers HEAD as it answers GET, without a body', async () => {
    for (const url of ['/esm/login', PAGES.changeNoticeList.path, '/esm/', '/esm/assets/app.js']) {
      const get = await w.app.inject({ method: 'GET', url });
      const head = await w.app.inject({ method: 'HEAD', url });
      expect(head.statusCode, url).toBe(200);
      expect(head.headers['content-type'], url).toBe(get.headers['content-type']);
      expect(head.headers['cache-control'], url).toBe(get.headers['cache-control']);
      expect(head.body, url).toBe('');
    }
    expect((await w.app.inject({ method: 'HEAD', url: '/esm-server/api/none' })).statusCode).toBe(404);
  });

  it('an asset goes out pre-compressed in the encoding the browser accepts, brotli first', async () => {
    const br = await w.app.inject({
      method: 'GET',
      url: '/esm/assets/app.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gz = await w.app.inject({ method: 'GET', url: '/esm/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');
    const plain = await w.app.inject({
      method: 'GET',
      url: '/esm/assets/app.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('a URL that cannot be decoded (/esm/%) → 400', async () => {
    expect(expectEnvelope(await w.app.inject({ method: 'GET', url: '/esm/%' }), 400).message).toBe(
      '请求地址无效，请检查链接是否完整',
    );
    expectEnvelope(await w.app.inject({ method: 'GET', url: '/esm-server/api/thing/%E0%A4%A' }), 400);
  });

  it.each([
    '/esm/assets/..%2f..%2f..%2fetc%2fpasswd',
    '/esm/assets/%2e%2e/%2e%2e/index.html',
    '/esm/assets/.env',
    '/esm/assets/nope.js',
  ])('a static path outside the build or missing (%s) → 403/404 envelope', async (url) => {
    const res = await w.app.inject({ method: 'GET', url });
    expect([403, 404]).toContain(res.statusCode);
    expectEnvelope(res, res.statusCode);
    expectSecurityHeaders(res.headers);
  });

  it('an unknown api path → 404', async () => {
    expectEnvelope(await w.app.inject({ method: 'POST', url: '/esm-server/api/no/such/call' }), 404);
  });

  it('a path parameter over the length limit → 414', async () => {
    const res = await w.app.inject({ method: 'GET', url: `/esm-server/api/thing/${'x'.repeat(500)}` });
    expect(expectEnvelope(res, 414).message).toBe('请求地址过长');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('headers over the size limit → 431, from a real socket', async () => {
    const res = await raw(w.app, `GET /esm/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ success: false, code: '431', data: null });
    expect(hasChinese(body.message)).toBe(true);
  });

  it('a URL longer than the parser takes → 431 in the envelope, from a real socket', async () => {
    const res = await raw(w.app, `GET /esm/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toMatchObject({
      success: false,
      code: '431',
      message: '请求地址或请求头过长',
      data: null,
    });
  });

  it('a malformed request line → 400, from a real socket', async () => {
    const res = await raw(w.app, 'GARBAGE\r\n\r\n');
    expect(res.status).toBe(400);
    const body = JSON.parse(res.body);
    expect(body).toMatchObject({ success: false, code: '400', data: null });
    expect(hasChinese(body.message)).toBe(true);
  });
});

// ---- the net under the schemas ----------------------------------------------------------

describe('values the database refuses are a 400, never a 500 (the schemas are to refuse them first)', () => {
  it.each([
    ['a NUL character in the login account', sessionApi.login, { account: 'demo\u00003', password: 'x' }, undefined],
    ['a NUL character in a list filter', archivesApi.files, { name: 'a\u0000b' }, 'staff'],
    ['an id of 2^31', archivesApi.fileSuppliers, { id: 2 ** 31 }, 'staff'],
    ['a file id of 2^31', filesApi.view, { id: 2 ** 31 }, 'staff'],
  ] as const)('%s', async (_label, endpoint, body, who) => {
    const res = await callApi(t.app, endpoint, unchecked(body), who ? staff : undefined, {
      remoteAddress: '10.60.9.9',
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(hasChinese(res.json().message)).toBe(true);
  });
});

// ---- API docs --------------------------------------------------------------------------------------

describe('API documentation', () => {
  it('needs an internal sign-in: none → 401, a supplier → 403, staff → the page and the document', async () => {
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/esm-server/docs' }), 401);
    expectEnvelope(await t.app.inject({ method: 'GET', url: '/esm-server/docs/json' }), 401);
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: '/esm-server/docs/json', headers: { cookie: supplier } }),
      403,
    );
    const page = await t.app.inject({ method: 'GET', url: '/esm-server/docs/', headers: { cookie: staff } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
    const doc = await t.app.inject({ method: 'GET', url: '/esm-server/docs/json', headers: { cookie: staff } });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().paths[`${API_BASE}/${sessionApi.login.path}`]).toBeDefined();
    // swagger-ui is loaded on the first visit and answers through the guarded routes (plugins/docs.ts)
    const css = await t.app.inject({
      method: 'GET',
      url: '/esm-server/docs/static/swagger-ui.css',
      headers: { cookie: staff },
    });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/css/);
    expect(css.body.length).toBeGreaterThan(1000);
    expectEnvelope(
      await t.app.inject({
        method: 'GET',
        url: '/esm-server/docs/static/swagger-ui.css',
        headers: { cookie: supplier },
      }),
      403,
    );
    const yaml = await t.app.inject({ method: 'GET', url: '/esm-server/docs/yaml', headers: { cookie: staff } });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain(`${API_BASE}/${sessionApi.login.path}`);
    // a path swagger-ui does not serve: the portal's own 404
    expectEnvelope(
      await t.app.inject({ method: 'GET', url: '/esm-server/docs/no-such-file', headers: { cookie: staff } }),
      404,
    );
  });

  it('API_DOCS_PUBLIC=true shows them to anyone', async () => {
    const open = await buildTestApp({ db: t.db, config: { apiDocsPublic: true } });
    try {
      expect((await open.app.inject({ method: 'GET', url: '/esm-server/docs/json' })).statusCode).toBe(200);
    } finally {
      await open.close();
    }
  });
});
