/**
 * The landing pages in Lighthouse 12 (desktop preset, its simulated throttling), signed in, on the
 * real server (`node dist/server.mjs`, bench/lib/server.ts) over a fresh Postgres database with
 * the demo data: demo2 (a supplier), demo3 (archive staff), demo5 and demo6 (their type's
 * landing pages, DEFAULT_PAGE). Each page: one warm-up run (the server's first compiles, not
 * counted), then max(BENCH_RUNS, 5) runs; the median of each figure.
 *
 * Chromium is Debian's (/usr/bin/chromium or CHROMIUM_PATH) started by chrome-launcher with
 * `chromePath`, never a downloaded browser. Lighthouse empties the cache before each run; the
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
  { account: 'demo2', type: 2 },
  { account: 'demo3', type: 3 },
  { account: 'demo5', type: 5 },
  { account: 'demo6', type: 6 },
];

/** As the issue asks: nothing in the background, no sandbox (a container), no GPU. */
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

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
  const summary = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number; requestCount: number }[] } | undefined)?.items ?? [];
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

export async function run({ runs }: BenchSettings): Promise<Row[]> {
  const webDist = path.resolve(apiDir, '../web/dist/index.html');
  if (!existsSync(webDist)) throw new Error('apps/web/dist is missing: build the web app first (pnpm build)');
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH); a downloaded browser is never used`);

  const db = await createBenchDatabase();
  const dir = tempDir('lighthouse');
  const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
  const http = new Pool(server.base, { connections: 2 });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'error' });
  const forget = onCleanup('kill chromium', async () => chrome.kill());
  const n = Math.max(runs, 5);
  const rows: Row[] = [];
  try {
    for (const { account, type } of ACCOUNTS) {
      const cookie = await login(http, account);
      const url = `${server.base}${DEFAULT_PAGE[type]}`;
      const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: { Cookie: cookie } };
      const results: Figures[] = [];
      for (let i = 0; i <= n; i++) {
        progress(`lighthouse ${account} ${DEFAULT_PAGE[type]} ${i === 0 ? 'warm-up' : `run ${i}/${n}`}`);
        const result = await lighthouse(url, flags, desktopConfig);
        if (!result) throw new Error(`lighthouse gave no result for ${url}`);
        const f = figures(result.lhr);
        if (result.lhr.finalDisplayedUrl.replace(/\/+$/, '') !== url) throw new Error(`${account}: landed on ${result.lhr.finalDisplayedUrl}, not ${url} (signed out?)`);
        if (i > 0) results.push(f);
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
