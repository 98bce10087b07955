/**
 * The landing pages in Lighthouse 12 (desktop preset, its simulated throttling), signed in, on the
 * real server (`node dist/server.mjs`, bench/lib/server.ts) over a fresh Postgres database with
 * the demo data: demo2 (a supplier), demo3 (archive staff), demo5 and demo6 (their type's
 * landing pages, DEFAULT_PAGE). One warm-up run of each page first (not counted: the server's
 * first compiles, and the page's first calls remembered in local storage, as for a user who opened
 * it before), then max(BENCH_RUNS, 5) runs of each page; the median of each figure.
 *
 * Chromium is Debian's (/usr/bin/chromium or CHROMIUM_PATH) started by chrome-launcher with
 * `chromePath`, never a downloaded browser. Lighthouse empties the HTTP cache before each run (its
 * storage reset leaves local storage); the
 * session rides on every request as a Cookie header (`extraHeaders`), as a browser that signed
 * in earlier sends it. Lighthouse 12.2.3 is pinned: 13 needs Node 22.
 *
 * JS on the wire: every script response of the page load as Chromium received it (transfer
 * size, headers included), from Lighthouse's resource summary.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { Pool } from 'undici';
import { DEFAULT_PAGE, type UserType } from '@esm/contracts/basics';
import { CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { login } from './lib/api-client.ts';
import { onCleanup } from './lib/cleanup.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { apiDir, startServer, tempDir } from './lib/server.ts';
import { fmt, median } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

/** The accounts whose landing pages are measured, with their user type (seed.ts). */
const ACCOUNTS: { account: string; type: UserType }[] = [
  { account: 'demo3', type: 3 },
  { account: 'demo2', type: 2 },
  { account: 'demo5', type: 5 },
  { account: 'demo6', type: 6 },
];

/** As the issue asks: nothing in the background, no sandbox (a container), no GPU. */
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface Figures {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
  jsFiles: number;
  cssBytes: number;
}

function figures(lhr: Result): Figures {
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const summary =
    (
      lhr.audits['resource-summary']?.details as
        { items?: { resourceType: string; transferSize: number; requestCount: number }[] } | undefined
    )?.items ?? [];
  const of = (type: string) => summary.find((i) => i.resourceType === type);
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return {
    score: Math.round((lhr.categories.performance?.score ?? NaN) * 100),
    fcpMs: num('first-contentful-paint'),
    lcpMs: num('largest-contentful-paint'),
    tbtMs: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    jsBytes: of('script')?.transferSize ?? NaN,
    jsFiles: of('script')?.requestCount ?? NaN,
    cssBytes: of('stylesheet')?.transferSize ?? NaN,
  };
}

/** Tries of one run before the benchmark gives up: on a busy machine Chromium may miss a protocol deadline. */
const TRIES = 3;

/**
 * One Lighthouse run of `url`. Lighthouse 12 can leave a rejected promise behind when Chromium
 * misses a DevTools deadline (PROTOCOL_TIMEOUT in its wait for a quiet page, seen on a machine
 * at load 30+): such a rejection while the run is on fails this try instead of the process, and
 * the run is tried again.
 */
async function lighthouseRun(url: string, flags: Flags): Promise<Figures> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    let stray: unknown;
    const onStray = (reason: unknown) => void (stray ??= reason);
    process.on('unhandledRejection', onStray);
    try {
      const result = await lighthouse(url, flags, desktopConfig);
      if (stray) throw stray;
      if (!result) throw new Error(`lighthouse gave no result for ${url}`);
      if (result.lhr.finalDisplayedUrl.replace(/\/+$/, '') !== url)
        throw new Error(`landed on ${result.lhr.finalDisplayedUrl}, not ${url} (signed out?)`);
      return figures(result.lhr);
    } catch (err) {
      lastError = err;
      progress(
        `lighthouse ${url}: try ${attempt}/${TRIES} failed: ${err instanceof Error ? err.message : String(err)}`,
      );
    } finally {
      process.off('unhandledRejection', onStray);
    }
  }
  throw lastError;
}

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const webDist = path.resolve(apiDir, '../web/dist/index.html');
  if (!existsSync(webDist)) throw new Error('apps/web/dist is missing: build the web app first (pnpm build)');
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH); a downloaded browser is never used`);

  const db = await createBenchDatabase();
  const dir = tempDir('lighthouse');
  const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
  const http = new Pool(server.base, { connections: 2 });
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    logLevel: 'error',
  });
  const forget = onCleanup('kill chromium', async () => chrome.kill());
  const n = Math.max(runs, 5);
  const rows: Row[] = [];
  try {
    for (const { account, type } of ACCOUNTS) {
      const cookie = await login(http, account);
      const url = `${server.base}${DEFAULT_PAGE[type]}`;
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        extraHeaders: { Cookie: cookie },
        maxWaitForLoad: 30_000,
      };
      // not counted: the server's first compiles, and the page's first load in this browser,
      // which leaves what a returning user's browser keeps (api/firstCalls.ts; Lighthouse empties
      // the HTTP cache before each run, not local storage)
      progress(`lighthouse ${account} ${DEFAULT_PAGE[type]} warm-up`);
      await lighthouseRun(url, flags);
      const results: Figures[] = [];
      for (let i = 1; i <= n; i++) {
        progress(`lighthouse ${account} ${DEFAULT_PAGE[type]} run ${i}/${n}`);
        const f = await lighthouseRun(url, flags);
        results.push(f);
        // each run's figures as it ends (a long series on a busy machine can be read as it goes)
        progress(
          `  score ${f.score}, LCP ${fmt(f.lcpMs)} ms, TBT ${fmt(f.tbtMs)} ms, CLS ${fmt(f.cls, 3)}, JS ${fmt(f.jsBytes / 1024, 1)} KB in ${f.jsFiles} files`,
        );
      }
      const med = (k: keyof Figures) => median(results.map((r) => r[k]));
      const range = (k: keyof Figures, digits = 0, scale = 1) => {
        const xs = results.map((r) => r[k] / scale);
        return `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`;
      };
      rows.push({
        page: `${account} ${DEFAULT_PAGE[type]}`,
        runs: results.length,
        score: `${fmt(med('score'))} (${range('score')})`,
        'FCP ms': fmt(med('fcpMs')),
        'LCP ms': `${fmt(med('lcpMs'))} (${range('lcpMs')})`,
        'TBT ms': `${fmt(med('tbtMs'))} (${range('tbtMs')})`,
        CLS: fmt(med('cls'), 3),
        'JS KB (files)': `${fmt(med('jsBytes') / 1024, 1)} (${fmt(med('jsFiles'))})`,
        'CSS KB': fmt(med('cssBytes') / 1024, 1),
        aim: 'score ≥ 95, LCP ≤ 1000, TBT ≤ 100, CLS ≤ 0.02, JS ≤ 300 KB',
      });
    }
  } finally {
    await forget();
    await http.close();
    await server.stop();
    await db.drop();
    await dir.remove();
  }
  return rows;
}
