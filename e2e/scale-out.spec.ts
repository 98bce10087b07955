/**
 * The portal as a real deployment: two api processes on one Postgres database and one S3-protocol
 * object store, behind a real reverse proxy (Debian's nginx, round robin) that the api trusts
 * (TRUST_PROXY). What one replica accepted, the other serves; the access log has one row per act
 * with the client's address (not the proxy's); a logout ends the session on both replicas.
 *
 * Everything here is started by the test on 127.0.0.1 and stopped after it: an S3 server (s3rver),
 * the two replicas (the built bundle, as `pnpm start` runs it) and nginx. The replicas start at the
 * same moment on an empty database with SEED_DEMO=true: both must come up, the demo seeded once.
 * nginx connects to the replicas from 127.0.0.2 (proxy_bind) and only that address is trusted, so a
 * row whose address is 127.0.0.1 (the browser's) proves the forwarded address was believed from the
 * proxy alone.
 */
import { test, expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import pg from 'pg';
import { e2eDatabaseUrl } from './db.ts';
import { PASSWORD, settled, apiUrl } from './helpers.ts';
import { startS3Server, type TestS3Server } from '../apps/api/test/s3-server.ts';
import { freePort } from '../apps/api/test/free-port.ts';
import { PAGES, archivesApi, filesApi, sessionApi, standardlogApi } from '../packages/contracts/src/index.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const DATABASE = `${process.env.E2E_DATABASE ?? 'esm_e2e'}_scale`;
const SECRET = 'scale-out-session-secret-that-is-long-enough-0123456789';
const PROXY_SOURCE = '127.0.0.2';

test.describe.configure({ mode: 'serial' });

async function admin<T>(fn: (c: pg.Client) => Promise<T>, database = 'postgres'): Promise<T> {
  const c = new pg.Client({ connectionString: e2eDatabaseUrl(database) });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Polls a URL until it answers 200 (a start that fails ends the wait with the process's output). */
async function untilHealthy(url: string, proc?: ChildProcess, output?: () => string) {
  for (;;) {
    if (proc && proc.exitCode !== null)
      throw new Error(`${url}: the process exited with ${proc.exitCode}\n${output?.()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Replica {
  port: number;
  proc: ChildProcess;
  log: string[];
}

let s3: TestS3Server;
let replicas: Replica[] = [];
let nginx: ChildProcess | undefined;
let nginxDir: string;
let proxy: string;

function startReplica(port: number, s3env: Record<string, string>): Replica {
  const log: string[] = [];
  const proc = spawn(process.execPath, [path.resolve('apps/api/dist/server.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: e2eDatabaseUrl(DATABASE),
      SESSION_SECRET: SECRET,
      SEED_DEMO: 'true',
      TRUST_PROXY: PROXY_SOURCE,
      LOG_LEVEL: 'warn',
      ...s3env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout?.on('data', (d: Buffer) => log.push(d.toString()));
  proc.stderr?.on('data', (d: Buffer) => log.push(d.toString()));
  return { port, proc, log };
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${DATABASE}"`);
  });
  s3 = await startS3Server();
  const s3env = s3.env;
  // both at once, on the empty database: migrations and the demo seed are taken in turn
  const ports = [await freePort(), await freePort()];
  replicas = ports.map((port) => startReplica(port, s3env));
  await Promise.all(
    replicas.map((r) =>
      untilHealthy(`http://127.0.0.1:${r.port}/esm-server/health/ready`, r.proc, () => r.log.join('')),
    ),
  );

  const port = await freePort();
  proxy = `http://127.0.0.1:${port}`;
  nginxDir = await mkdtemp(path.join(tmpdir(), 'esm-nginx-'));
  const root = process.getuid?.() === 0;
  await writeFile(
    path.join(nginxDir, 'nginx.conf'),
    `${root ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${nginxDir}/nginx.pid;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${nginxDir}/body;
  proxy_temp_path ${nginxDir}/proxy;
  fastcgi_temp_path ${nginxDir}/fastcgi;
  uwsgi_temp_path ${nginxDir}/uwsgi;
  scgi_temp_path ${nginxDir}/scgi;
  client_max_body_size 100m;
  upstream esm { ${replicas.map((r) => `server 127.0.0.1:${r.port};`).join(' ')} }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://esm;
      proxy_bind ${PROXY_SOURCE};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_buffering off;
      proxy_request_buffering off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`,
  );
  const check = spawnSync(NGINX, ['-t', '-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-e', 'stderr'], {
    encoding: 'utf8',
  });
  if (check.status !== 0) throw new Error(`nginx -t: ${check.stderr}`);
  const out: string[] = [];
  nginx = spawn(NGINX, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  nginx.stderr?.on('data', (d: Buffer) => out.push(d.toString()));
  await untilHealthy(`${proxy}/esm-server/health/ready`, nginx, () => out.join(''));
});

test.afterAll(async () => {
  const exited = (p: ChildProcess) => (p.exitCode !== null ? Promise.resolve() : new Promise((r) => p.once('exit', r)));
  for (const p of [nginx, ...replicas.map((r) => r.proc)]) p?.kill('SIGTERM');
  await Promise.all([nginx, ...replicas.map((r) => r.proc)].filter((p): p is ChildProcess => !!p).map(exited));
  await s3?.remove();
  if (nginxDir) await rm(nginxDir, { recursive: true, force: true });
  await admin((c) => c.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`));
});

const upstreamOf = (res: APIResponse) => res.headers()['x-upstream'];

/**
 * nginx's round robin over two servers with one worker alternates strictly: after a request served
 * by `served`, the next one goes to the other replica. Requests that nobody else sends make that so.
 */
async function nextGoesToOtherThan(api: APIRequestContext, served: string) {
  for (;;) {
    const res = await api.get('/esm-server/health/live');
    if (upstreamOf(res) === served) return;
  }
}

async function pdf(title: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText(title, { x: 60, y: 770, size: 18, font });
  return Buffer.from(await doc.save());
}

test('two replicas behind a proxy: uploaded on one, viewed and downloaded on the other, one log row each, logout on both', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const rows = await admin((c) => c.query<{ count: string }>(`SELECT count(*) FROM supplier`), DATABASE);
  expect(Number(rows.rows[0]!.count)).toBeGreaterThan(0); // seeded once, by whichever replica came first

  // the supplier signs in through the proxy, in the browser
  const context = await browser.newContext({ baseURL: proxy });
  const page = await context.newPage();
  await page.goto('/esm/login');
  await page.getByPlaceholder('账号').fill('demo2');
  await page.getByPlaceholder('密码').fill(PASSWORD);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGES.dashboardS.path);
  await settled(page);
  // from here on only this test's own requests reach the proxy (the page's bell polls now and then)
  await page.close();
  const supplier = context.request;
  const visible = await supplier.post(apiUrl(archivesApi.supplierFiles), {
    data: { page: 1, results: 50 },
  });

  // a drawing the supplier may see now: its next version is uploaded by the drawing admin
  const pdfRow = (
    (await visible.json()).data as {
      standardCode: string;
      name: string;
      materialCode: string;
      category: string;
      secretLevel: string;
      fileType: string;
    }[]
  ).find((r) => r.fileType === 'pdf');
  expect(pdfRow, 'demo2 sees a PDF drawing').toBeTruthy();

  const admin3 = await playwrightRequest.newContext({ baseURL: proxy });
  expect(
    (await (await admin3.post(apiUrl(sessionApi.login), { data: { account: 'demo3', password: PASSWORD } })).json())
      .code,
  ).toBe('10000000');
  const version = `SCALE-${Date.now().toString(36).toUpperCase()}`;
  const upload = await admin3.post(apiUrl(archivesApi.upload), {
    multipart: {
      standardCode: pdfRow!.standardCode,
      name: pdfRow!.name,
      version,
      materialCode: pdfRow!.materialCode,
      category: pdfRow!.category,
      secretLevel: pdfRow!.secretLevel,
      effectiveDate: new Date().toISOString().slice(0, 10),
      file: {
        name: `${version}.pdf`,
        mimeType: 'application/pdf',
        buffer: await pdf(`${pdfRow!.standardCode} ${version}`),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const uploadedOn = upstreamOf(upload)!;
  const fileId = ((await upload.json()).data as { id: number }).id;

  // the confidentiality agreement first (accepted on whichever replica)
  const agreement = (await (await supplier.post(apiUrl(standardlogApi.hasKeepsecret), { data: {} })).json()).data as {
    accepted: boolean;
    agreement: { id: number };
  };
  if (!agreement.accepted)
    expect(
      (
        await supplier.post(apiUrl(standardlogApi.insertKeepsecret), {
          data: { agreementId: agreement.agreement.id },
        })
      ).status(),
    ).toBe(200);

  // the view and the download are served by the replica that did not take the upload
  await nextGoesToOtherThan(supplier, uploadedOn);
  const view = await supplier.post(apiUrl(filesApi.view), { data: { id: fileId } });
  expect(view.status(), await view.text()).toBe(200);
  expect(upstreamOf(view)).not.toBe(uploadedOn);
  expect((await view.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await nextGoesToOtherThan(supplier, uploadedOn);
  const download = await supplier.post(apiUrl(filesApi.download), { data: { id: fileId } });
  expect(download.status()).toBe(200);
  expect(upstreamOf(download)).not.toBe(uploadedOn);

  // one row per act, with the browser's address (forwarded by the trusted proxy), not the proxy's
  // (each delivery's end is a second row naming it, written as its response ends: waited for)
  const log = async () =>
    (
      await admin(
        (c) =>
          c.query<{ action: string; ip: string; complete: boolean | null }>(
            `SELECT l.action, l.ip, d.complete FROM access_log l LEFT JOIN access_delivery d ON d.access_log_id = l.id WHERE l.file_id = $1 AND l.user_account = 'demo2' ORDER BY l.id`,
            [fileId],
          ),
        DATABASE,
      )
    ).rows.map((r) => [r.action, r.ip, r.complete]);
  await expect.poll(log).toEqual([
    ['VIEW', '127.0.0.1', true],
    ['DOWNLOAD', '127.0.0.1', true],
  ]);

  // logging out (through the proxy, on whichever replica) ends the session on both
  const cookies = await context.cookies();
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const current = (port: number) =>
    fetch(`http://127.0.0.1:${port}${apiUrl(sessionApi.current)}`, {
      method: 'POST',
      headers: { cookie: cookieHeader, 'content-type': 'application/json' },
      body: '{}',
    }).then((r) => r.json() as Promise<{ code: string }>);
  for (const r of replicas) expect((await current(r.port)).code).toBe('0');
  expect((await supplier.post(apiUrl(sessionApi.logout), { data: {} })).ok()).toBe(true);
  for (const r of replicas) expect((await current(r.port)).code).not.toBe('0');

  await admin3.dispose();
  await context.close();
});
