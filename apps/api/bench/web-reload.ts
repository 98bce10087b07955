/**
 * A landing page opened again directly (a reload, a bookmark, a link in a mail) in Debian's
 * Chromium (/usr/bin/chromium or CHROMIUM_PATH; never a downloaded browser) driven by Playwright,
 * against the real server (`node dist/server.mjs`, bench/lib/server.ts) on a fresh Postgres
 * database with the demo data: from the navigation's start (performance.timeOrigin) to the first
 * row of the page's table with no spinner left.
 *
 * Each run is a new browser context with the user's session cookie: the page is opened once
 * (not timed: what the browser keeps of it, such as the first calls remembered in local storage,
 * apps/web api/firstCalls.ts), then the HTTP cache is emptied (as after a new release) and the page
 * reloaded, timed. The network is Chromium's emulation: 10 Mbit/s each way and each of
 * `BENCH_LATENCIES` (ms added to every request's round trip; default `0,100`: this machine, and a
 * supplier's office far from the server). demo3, demo2, demo5 and demo6's landing pages; one
 * warm-up, then max(BENCH_RUNS, 5) runs of each; the median.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { Pool } from 'undici';
import { DEFAULT_PAGE, type UserType } from '@esm/contracts/basics';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { login } from './lib/api-client.ts';
import { onCleanup } from './lib/cleanup.ts';
import { demoServer } from './lib/demo-server.ts';
import { apiDir } from './lib/server.ts';
import { fmt, median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';
import { portalContext } from './lib/browser.ts';

const ACCOUNTS: { account: string; type: UserType }[] = [
  { account: 'demo3', type: 3 },
  { account: 'demo2', type: 2 },
  { account: 'demo5', type: 5 },
  { account: 'demo6', type: 6 },
];

/** Installed before any page script: when the table first shows a row with no spinner (a string: see web-login.ts). */
const PROBE = `(() => {
  const check = () => {
    if (window.__rows === undefined && document.querySelector('#root .ant-table-tbody tr.ant-table-row') && !document.querySelector('#root .ant-spin-spinning')) window.__rows = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
})();`;

/** The probe's time, in the page (a function run there: it names nothing of this module). */
const rowsShown = () => (window as unknown as { __rows?: number }).__rows;
const rowsThere = () => (window as unknown as { __rows?: number }).__rows !== undefined;

/**
 * Tries of one run. Under Chromium's network emulation, a page that asks for its ~14 scripts at
 * once now and then stalls for good — every request pending, no frame drawn — which the same
 * build without the emulation (200 loads) and the build that asked for them a level at a time
 * with it (200 loads) never did: such a run is given up after RUN_TIMEOUT_MS and tried again.
 */
const TRIES = 3;
const RUN_TIMEOUT_MS = 20_000;

async function timedRun(browser: Browser, base: string, cookie: string, url: string, latency: number): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await oneRun(browser, base, cookie, url, latency);
    } catch (err) {
      if (attempt >= TRIES) throw err;
      progress(
        `web-reload ${url}: try ${attempt}/${TRIES} stalled: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
      );
    }
  }
}

async function oneRun(browser: Browser, base: string, cookie: string, url: string, latency: number): Promise<number> {
  const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
  const context = await portalContext(browser, base);
  try {
    await context.addCookies([{ name, value, url: base }]);
    await context.addInitScript(PROBE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const throughput = 10e6 / 8;
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency,
      downloadThroughput: throughput,
      uploadThroughput: throughput,
    });
    await page.goto(url, { waitUntil: 'commit', timeout: RUN_TIMEOUT_MS });
    await page.waitForFunction(rowsThere, undefined, { timeout: RUN_TIMEOUT_MS });
    await page.waitForLoadState('networkidle', { timeout: RUN_TIMEOUT_MS });
    await cdp.send('Network.clearBrowserCache');
    await page.reload({ waitUntil: 'commit', timeout: RUN_TIMEOUT_MS });
    await page.waitForFunction(rowsThere, undefined, { timeout: RUN_TIMEOUT_MS });
    return (await page.evaluate(rowsShown))!;
  } finally {
    await context.close().catch(() => {}); // a stalled page may not close cleanly
  }
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  if (!existsSync(path.resolve(apiDir, '../web/dist/index.html')))
    throw new Error('apps/web/dist is missing: build the web app first (pnpm build)');
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH); a downloaded browser is never used`);
  const latencies = (process.env.BENCH_LATENCIES ?? '0,100').split(',').map(Number);

  const server = await demoServer('web-reload');
  const http = new Pool(server.base, { connections: 2 });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const forget = onCleanup('close chromium', () => browser.close());
  const n = Math.max(runs, 5);
  const rows: Row[] = [];
  try {
    for (const latency of latencies)
      for (const { account, type } of ACCOUNTS) {
        const cookie = await login(http, account);
        const url = DEFAULT_PAGE[type];
        await timedRun(browser, server.base, cookie, url, latency); // warm-up: the server's first compiles
        const ms: number[] = [];
        for (let i = 1; i <= n; i++) {
          progress(`web-reload ${account} +${latency} ms run ${i}/${n}`);
          ms.push(await timedRun(browser, server.base, cookie, url, latency));
        }
        rows.push({
          page: `${account} ${url}`,
          'added latency': `${latency} ms`,
          runs: ms.length,
          'reload → rows, median': `${fmt(median(ms))} ms`,
          min: `${fmt(Math.min(...ms))} ms`,
          max: `${fmt(Math.max(...ms))} ms`,
        });
      }
  } finally {
    await forget();
    await http.close();
    await server.stop();
  }
  return rows;
}
