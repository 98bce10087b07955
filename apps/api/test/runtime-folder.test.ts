/**
 * The production image's runtime stage, without Docker: scripts/runtime-folder.mjs — the script
 * the Dockerfile runs — assembles the folder from this checkout's build (`pnpm build` first, as
 * `pnpm test` does), and the portal runs from that folder alone, outside the checkout, where node
 * cannot fall back on the checkout's node_modules: it starts on the embedded database, answers
 * health, signs in demo2, serves a watermarked drawing (canvas, pdf-lib, the font), stops on
 * SIGTERM, and the operators' backup commands run there with plain node — no dev dependency.
 *
 * Opt-in (RUNTIME_FOLDER_TEST=1; `pnpm test:runtime`, which .ci/run runs after the test command):
 * pnpm deploy and a first start with the demo seed take 40–60 s on an idle two-core machine and
 * 2–3 minutes on a busy one, too long for every `pnpm test:unit`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed.ts';
import { API_BASE, archivesApi, filesApi, sessionApi, type EndpointDef } from '@esm/contracts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let work: string;
let out: string;
let api: string;
let server: ChildProcess | undefined;

function run(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.stderr.on('data', (d: Buffer) => (text += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out: text }));
  });
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Only what a container gets: no PATH into the checkout, no NODE_PATH. */
const bareEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: '/usr/local/bin:/usr/bin:/bin',
  HOME: work,
  NODE_ENV: 'production',
  ...extra,
});

describe.skipIf(!process.env.RUNTIME_FOLDER_TEST)('the runtime folder', () => {
  beforeAll(async () => {
    const needed = ['apps/api/dist/server.mjs', 'apps/api/dist/cli.mjs', 'apps/web/dist/index.html'].filter(
      (f) => !existsSync(path.join(ROOT, f)),
    );
    if (needed.length) throw new Error(`${needed.join(', ')} missing: run \`pnpm build\` before this test`);
    work = await mkdtemp(path.join(tmpdir(), 'esm-runtime-'));
    out = path.join(work, 'app');
    api = path.join(out, 'apps/api');
    const built = path.join(work, 'runtime');
    const made = await run(process.execPath, [path.join(ROOT, 'scripts/runtime-folder.mjs'), built], {
      cwd: ROOT,
      env: process.env,
    });
    if (made.code !== 0) throw new Error(`runtime-folder.mjs failed (${made.code}):\n${made.out}`);
    // the image copies the folder elsewhere (/runtime → /app): nothing in it may point back
    await rename(built, out);
  }, 300_000);

  afterAll(async () => {
    if (server && server.exitCode === null) server.kill('SIGKILL');
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the bundle, the web, the migrations and the production dependencies only', () => {
    for (const f of [
      'apps/api/dist/server.mjs',
      'apps/api/dist/cli.mjs',
      'apps/api/dist/db-image',
      'apps/web/dist/index.html',
      'prisma/migrations/migration_lock.toml',
    ])
      expect(existsSync(path.join(out, f)), f).toBe(true);
    // no sources, tests or benchmarks: the bundle is all the code
    expect(readdirSync(api).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    const installed = readdirSync(path.join(api, 'node_modules/.pnpm'));
    for (const dep of ['@prisma+client@', 'pg@', '@electric-sql+pglite@', '@napi-rs+canvas@'])
      expect(
        installed.some((d) => d.startsWith(dep)),
        dep,
      ).toBe(true);
    // build-only packages (the Prisma CLI and Studio, TypeScript, tsx, esbuild, vite, vitest, the web's) stay out
    for (const dep of [
      'prisma@',
      '@prisma+studio-core@',
      'typescript@',
      'tsx@',
      'esbuild@',
      'vite@',
      'vitest@',
      'antd@',
      'pdfjs-dist@',
      'turbo@',
    ])
      expect(
        installed.filter((d) => d.startsWith(dep)),
        dep,
      ).toEqual([]);
  });

  it('runs the portal on its own: health, sign-in, a stamped download, a clean stop, then backup and verify with plain node', async () => {
    const port = await freePort();
    const data = path.join(work, 'data');
    const base = `http://127.0.0.1:${port}`;
    const env = bareEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: data,
      SESSION_SECRET: 'r'.repeat(40),
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'true',
    });
    let log = '';
    server = spawn(process.execPath, ['dist/server.mjs'], { cwd: api, env, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));

    // up when health says so (or fail at once if the process ends first)
    for (;;) {
      if (server.exitCode !== null)
        throw new Error(`the portal exited with ${server.exitCode} before it was healthy:\n${log}`);
      const ok = await fetch(`${base}/esm-server/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    const call = async (endpoint: EndpointDef, body: object, cookie?: string) =>
      fetch(`${base}${API_BASE}/${endpoint.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(body),
      });
    const signIn = async (account: string) => {
      const res = await call(sessionApi.login, { account, password: DEMO_PASSWORD });
      expect(res.status, `${account}: ${log}`).toBe(200);
      expect(((await res.json()) as { code: string }).code).toBe('10000000');
      return res.headers
        .getSetCookie()
        .find((c) => c.startsWith('esm_sid='))!
        .split(';')[0]!;
    };
    const supplier = await signIn('demo2');
    expect(
      (await (await call(sessionApi.current, {}, supplier)).json()) as { code: string; data: { account: string } },
    ).toMatchObject({ code: '0', data: { account: 'demo2' } });

    // a drawing, stamped with the reader's watermark on the way out
    const admin = await signIn('demo3');
    const list = (await (await call(archivesApi.files, { results: 50 }, admin)).json()) as {
      data: { id: number; fileType: string }[];
    };
    const pdf = list.data.find((f) => f.fileType === 'pdf');
    expect(pdf, JSON.stringify(list).slice(0, 300)).toBeDefined();
    const download = await call(filesApi.download, { id: pdf!.id }, admin);
    expect(download.status, log).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const page = await fetch(`${base}/esm/login`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    server.kill('SIGTERM');
    expect(await exited, log).toBe(0);

    // the operators' commands from the same folder, on the database the portal left
    const backupDir = path.join(work, 'backup');
    const made = await run(process.execPath, ['dist/cli.mjs', 'backup', backupDir], {
      cwd: api,
      env: bareEnv({ DATA_DIR: data, SESSION_SECRET: 'r'.repeat(40) }),
    });
    expect(made.code, made.out).toBe(0);
    const verified = await run(process.execPath, ['dist/cli.mjs', 'verify-backup', backupDir], {
      cwd: api,
      env: bareEnv({ DATA_DIR: path.join(work, 'verify'), SESSION_SECRET: 'r'.repeat(40) }),
    });
    expect(verified.code, verified.out).toBe(0);
    expect(verified.out).toMatch(/verified: \d+ tables with the rows counted at backup, \d+ files \(sha256\)/);
  }, 300_000);
});
