/**
 * Layout shift (CLS) and JavaScript on the wire of each user type's landing page (a tool, not one
 * of run.ts's benchmarks): the real server, Debian's Chromium at 1366×800; each account (demo3,
 * demo2, demo5, demo6; CLS_ACCOUNTS) signs in on /esm/login CLS_RUNS times, each in a new context
 * (empty cache). A buffered PerformanceObserver sums the layout-shift entries (without recent
 * input) from the click on 登录 until the landing table has its rows and no spinner, then again
 * for a fresh load of the landing page, signed in, empty cache (as Lighthouse loads it). JS on
 * the wire: every `.js` response's transfer size (brotli, as the server sends it) from the login
 * page's load on — its own, the shell, and what it prefetches while the user types (in a browser
 * that never signed in, every user type's landing page). Prints each run and the medians;
 * CLS_SOURCES=1 also prints what each shift moved (tag, classes, rectangle before → after).
 * `BASE_URL` uses a server already running, else one is started on a fresh database with the
 * demo data.
 */
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { demoServer } from './lib/demo-server.ts';
import { portalContext } from './lib/browser.ts';

/** Every layout shift of the page into window.__shifts, with what moved (tag, classes, rect before → after). */
const observer = `(() => {
  const all = (window.__shifts = []);
  const name = (n) => n ? (n.nodeName + '.' + String(n.className?.baseVal ?? n.className ?? '').trim().split(/\\s+/).slice(0, 3).join('.')) : '?';
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput)
      all.push({ value: e.value, at: Math.round(e.startTime), sources: (e.sources || []).map((s) => name(s.node) + ' ' + [s.previousRect.x, s.previousRect.y, s.previousRect.width, s.previousRect.height].map(Math.round).join(',') + '→' + [s.currentRect.x, s.currentRect.y, s.currentRect.width, s.currentRect.height].map(Math.round).join(',')) });
  }).observe({ type: 'layout-shift', buffered: true });
})();`;

const runs = Number(process.env.CLS_RUNS ?? 3);
const ACCOUNTS = process.env.CLS_ACCOUNTS?.split(',') ?? ['demo3', 'demo2', 'demo5', 'demo6'];

interface Shift {
  value: number;
  at: number;
  sources: string[];
}

/** The page's layout shifts so far (the observer set up by the init script below). */
const shifts = (page: Page) => page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);

async function main() {
  const { base, stop } = await demoServer('cls');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (const account of ACCOUNTS) {
      const cls: number[] = [];
      const js: number[] = [];
      const reload: number[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await portalContext(browser, base);
        // every layout shift of the page, with what moved (the node's tag and class)
        await context.addInitScript(observer);
        const page = await context.newPage();
        let bytes = 0;
        page.on('response', (r) => {
          if (!r.url().endsWith('.js')) return;
          void r
            .request()
            .sizes()
            .then(
              (s) => (bytes += s.responseBodySize + s.responseHeadersSize),
              () => {},
            );
        });
        await page.goto('/esm/login');
        await page.getByPlaceholder('账号').fill(account);
        await page.getByPlaceholder('密码').fill('Esm@2026');
        await page.waitForLoadState('networkidle');
        const before = (await shifts(page)).length;
        await page.getByRole('button', { name: /登\s*录/ }).click();
        await page.waitForURL((u) => !u.pathname.endsWith('/login'));
        await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
        await page.waitForFunction(() => !document.querySelector('#root .ant-spin-spinning'));
        await page.waitForLoadState('networkidle');
        // the landing page's own shifts: from the click on 登录 until its table has its rows
        const mine = (await shifts(page)).slice(before);
        const sum = mine.reduce((a, s) => a + s.value, 0);
        cls.push(sum);
        js.push(bytes / 1024);
        console.log(`${account} run ${i}: CLS ${sum.toFixed(4)}, JS ${(bytes / 1024).toFixed(1)} KB`);
        if (process.env.CLS_SOURCES)
          for (const s of mine) console.log(`  ${s.at} ms ${s.value.toFixed(4)} ${s.sources.join(' | ')}`);
        // the landing page loaded afresh, signed in, empty cache (as Lighthouse loads it)
        const landing = new URL(page.url()).pathname;
        const fresh = await browser.newContext({
          baseURL: base,
          locale: 'zh-CN',
          timezoneId: 'Asia/Shanghai',
          viewport: { width: 1366, height: 800 },
          storageState: await context.storageState(),
        });
        await context.close();
        await fresh.addInitScript(observer);
        const again = await fresh.newPage();
        await again.goto(landing);
        await again.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
        await again.waitForFunction(() => !document.querySelector('#root .ant-spin-spinning'));
        await again.waitForLoadState('networkidle');
        const load = await shifts(again);
        const loadSum = load.reduce((a, s) => a + s.value, 0);
        reload.push(loadSum);
        console.log(`${account} run ${i}: CLS of a fresh load of ${landing} ${loadSum.toFixed(4)}`);
        if (process.env.CLS_SOURCES)
          for (const s of load) console.log(`  ${s.at} ms ${s.value.toFixed(4)} ${s.sources.join(' | ')}`);
        await fresh.close();
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      console.log(
        `${account}: median CLS ${median(cls).toFixed(4)} after the sign-in, ${median(reload).toFixed(4)} on a fresh load; JS on the wire ${median(js).toFixed(1)} KB`,
      );
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
