/**
 * The login page and the first page after it, in Debian's Chromium (/usr/bin/chromium, or
 * CHROMIUM_PATH; never a downloaded browser) driven by playwright, against the real server
 * (`node dist/server.mjs`, bench/lib/server.ts) on a fresh Postgres database with the demo data:
 *  - navigation → login form usable: from the navigation's start (performance.timeOrigin) to
 *    the moment the account field, the password field and the 登录 button are all in the page
 *    (React renders them only once the login chunk ran, so they answer input from then on);
 *  - login submit → landing table filled: from the click on 登录 to the first row of the landing
 *    page's table (demo3 → /esm/dashboard, the archive) with no spinner left; once with the
 *    fields filled at once and the click right after (the worst case: nothing can be prepared
 *    while the user types), once with them typed at 10 keys a second as a person would;
 *  - JavaScript on the wire for a first load of /esm/login (empty cache): every script the page
 *    loaded until the network was quiet, as Chromium received it (it offers br to 127.0.0.1, a
 *    trustworthy origin), and the same files as the server sends them with br and with gzip.
 * Times are taken in the page (a MutationObserver and a capturing click listener), not by
 * polling from outside, and each run uses a new browser context (empty cache). Median of
 * max(BENCH_RUNS, 5) runs.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { apiDir, startServer, tempDir } from './lib/server.ts';
import { fmt, median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';
import { portalContext } from './lib/browser.ts';

const ACCOUNT = 'demo3';
const PASSWORD = 'Esm@2026';

/**
 * Installed before any page script: records when the form became usable and when the table
 * filled. A string, not a function: tsx (esbuild) would wrap a function's inner names in a
 * `__name` helper that does not exist in the page.
 */
const PROBE = `(() => {
  const b = (window.__bench = {});
  // the click's instant survives the page load into the portal (absolute, in sessionStorage)
  const at = () => performance.timeOrigin + performance.now();
  const check = () => {
    const now = performance.now();
    if (b.formUsable === undefined && document.querySelector('input[placeholder="账号"]') && document.querySelector('input[placeholder="密码"]') && document.querySelector('button[type="submit"]')) b.formUsable = now;
    const submitAt = Number(sessionStorage.getItem('__benchSubmit') || 'NaN');
    if (!Number.isNaN(submitAt) && b.tableMs === undefined && document.querySelector('#root .ant-table-tbody tr.ant-table-row') && !document.querySelector('#root .ant-spin-spinning')) b.tableMs = at() - submitAt;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  document.addEventListener('click', (e) => {
    if (e.target && e.target.closest && e.target.closest('button[type="submit"]')) sessionStorage.setItem('__benchSubmit', String(at()));
  }, true);
})();`;

/** Body bytes of one GET as the server sends it to a client accepting `encoding`. */
function wireBytes(url: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let n = 0;
        res.on('data', (d: Buffer) => (n += d.length));
        res.on('end', () => resolve(n));
      })
      .on('error', reject);
  });
}

interface RunResult {
  formMs: number;
  tableMs: number;
  js: { url: string; wire: number; decoded: number }[];
}

async function oneRun(browser: Browser, base: string, typed = false): Promise<RunResult> {
  const context = await portalContext(browser, base);
  try {
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    const scripts: Promise<{ url: string; wire: number; decoded: number }>[] = [];
    let counting = true;
    page.on('requestfinished', (req) => {
      if (!counting || !new URL(req.url()).pathname.endsWith('.js')) return;
      scripts.push(
        req.sizes().then(async (s) => ({
          url: req.url(),
          wire: s.responseBodySize,
          decoded: (await (await req.response())?.body())?.length ?? 0,
        })),
      );
    });
    await page.goto('/esm/login');
    await page.waitForFunction(
      () => (window as unknown as { __bench: { formUsable?: number } }).__bench.formUsable !== undefined,
    );
    const formMs = await page.evaluate(
      () => (window as unknown as { __bench: { formUsable: number } }).__bench.formUsable,
    );
    await page.waitForLoadState('networkidle');
    counting = false;
    const js = await Promise.all(scripts);

    if (typed) {
      // as a person types: 10 keys a second (the page may use the time, as it does for a person)
      await page.getByPlaceholder('账号').pressSequentially(ACCOUNT, { delay: 100 });
      await page.getByPlaceholder('密码').pressSequentially(PASSWORD, { delay: 100 });
    } else {
      await page.getByPlaceholder('账号').fill(ACCOUNT);
      await page.getByPlaceholder('密码').fill(PASSWORD);
    }
    await page.getByRole('button', { name: /登\s*录/ }).click();
    // the portal is at the landing page (a page load, or the router's navigation), then its table fills
    await page.waitForURL((u) => !u.pathname.replace(/\/+$/, '').endsWith('/login'), { timeout: 60_000 });
    await page.waitForFunction(
      () => (window as unknown as { __bench: { tableMs?: number } }).__bench.tableMs !== undefined,
      undefined,
      { timeout: 60_000 },
    );
    const tableMs = await page.evaluate(() => (window as unknown as { __bench: { tableMs: number } }).__bench.tableMs);
    return { formMs, tableMs, js };
  } finally {
    await context.close();
  }
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const webDist = path.resolve(apiDir, '../web/dist/index.html');
  if (!existsSync(webDist))
    throw new Error('apps/web/dist is missing: build the web app first (pnpm exec turbo run build)');
  const executablePath = CHROMIUM_PATH;
  if (!existsSync(executablePath))
    throw new Error(`no Chromium at ${executablePath} (set CHROMIUM_PATH); a downloaded browser is never used`);

  const db = await createBenchDatabase();
  const dir = tempDir('web');
  const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
  const browser = await chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
  });
  const forget = onCleanup('close chromium', () => browser.close());
  try {
    const n = Math.max(runs, 5);
    await oneRun(browser, server.base); // warm-up: the server's first compiles and caches, not timed
    const results: RunResult[] = [];
    const typedResults: RunResult[] = [];
    for (let i = 1; i <= n; i++) {
      progress(`web-login run ${i}/${n}`);
      results.push(await oneRun(browser, server.base));
      typedResults.push(await oneRun(browser, server.base, true));
    }
    const js = results[results.length - 1]!.js;
    const br = await Promise.all(js.map((s) => wireBytes(s.url, 'br')));
    const gz = await Promise.all(js.map((s) => wireBytes(s.url, 'gzip')));
    const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
    const kb = (bytes: number) => fmt(bytes / 1024, 1);
    const timing = (label: string, ms: number[], aim: string): Row => ({
      measure: label,
      runs: ms.length,
      median: `${fmt(median(ms))} ms`,
      min: `${fmt(Math.min(...ms))} ms`,
      max: `${fmt(Math.max(...ms))} ms`,
      aim,
    });
    const bytes = (label: string, value: string, aim: string): Row => ({
      measure: label,
      runs: 1,
      median: value,
      min: '',
      max: '',
      aim,
    });
    return [
      timing(
        'navigation → login form usable (empty cache)',
        results.map((r) => r.formMs),
        '≤ 400 ms',
      ),
      timing(
        'login submit → landing table filled (demo3, /esm/dashboard)',
        results.map((r) => r.tableMs),
        '≤ 600 ms',
      ),
      timing(
        'the same, the fields typed at 10 keys/s before the click',
        typedResults.map((r) => r.tableMs),
        '≤ 600 ms',
      ),
      bytes(`/esm/login first load: JS files`, String(js.length), ''),
      bytes(
        '/esm/login first load: JS on the wire, as Chromium received it',
        `${kb(sum(js.map((s) => s.wire)))} KB`,
        '≤ 200 KB',
      ),
      bytes(
        '/esm/login first load: the same files as the server sends them with br / gzip',
        `${kb(sum(br))} / ${kb(sum(gz))} KB`,
        '',
      ),
      bytes('/esm/login first load: JS decoded', `${kb(sum(js.map((s) => s.decoded)))} KB`, ''),
    ];
  } finally {
    await forget();
    await browser.close().catch(() => {});
    await server.stop();
    await db.drop();
    await dir.remove();
  }
}
