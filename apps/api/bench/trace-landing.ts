/**
 * Where login submit → landing table goes (a tool, not one of run.ts's benchmarks): the
 * real server, Debian's Chromium, demo3 signs in TRACE_RUNS times after a warm-up; each run prints
 * the click → table time and when the landing page's layout, table, first row and spinner
 * appeared (its own performance.now()). `BASE_URL` uses a server already running, else one is
 * started on a fresh database with the demo data. TRACE_MODE:
 *  - (unset): a Chromium trace (timeline + V8 sampling) of the last run to TRACE_OUT, and its
 *    requests (start–end from the landing page's start, cache or network);
 *  - `cpu`: a V8 CPU profile (CDP Profiler, 200 µs) of the last run to TRACE_OUT (.cpuprofile);
 *  - `cputime`: the renderer main thread's CPU time from the click to the table, every run — a
 *    figure that a busy machine inflates far less than the wall time;
 *  - `none`: the times only.
 * TRACE_AT_ONCE=1: the fields are filled and 登录 clicked at once (web-login's first case), the
 * trace or profile started before the fill; else the shell fetched while typing has arrived.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { demoServer } from './lib/demo-server.ts';
import { portalContext } from './lib/browser.ts';

const runs = Number(process.env.TRACE_RUNS ?? 3);
const out = process.env.TRACE_OUT ?? '/tmp/landing-trace.json';

async function main() {
  const { base, stop } = await demoServer('trace');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    for (let i = 0; i <= runs; i++) {
      const context = await portalContext(browser, base);
      // when the landing page's parts appear (performance.now() of the landing page), for the summary
      await context.addInitScript(`(() => {
        const seen = (window.__seen = {});
        const mark = (k, on) => { if (on && seen[k] === undefined) seen[k] = Math.round(performance.now()); };
        new MutationObserver(() => {
          mark('layout', document.querySelector('.ant-layout'));
          mark('table', document.querySelector('.ant-table'));
          mark('row', document.querySelector('.ant-table-row'));
          mark('spin', document.querySelector('.ant-spin-spinning'));
          if (seen.spin !== undefined && !document.querySelector('.ant-spin-spinning')) mark('spinGone', true);
        }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
      })();`);
      const page = await context.newPage();
      await page.goto('/esm/login');
      await page.waitForLoadState('networkidle');
      const fill = async () => {
        await page.getByPlaceholder('账号').fill('demo3');
        await page.getByPlaceholder('密码').fill('Esm@2026');
      };
      // TRACE_AT_ONCE=1: the fields filled and 登录 clicked at once, as web-login's first case (the
      // trace then holds the shell's load too); else the shell prefetched while "typing" is let finish
      const atOnce = !!process.env.TRACE_AT_ONCE;
      if (!atOnce) {
        await fill();
        await page.waitForLoadState('networkidle');
      }
      const cpuOnly = process.env.TRACE_MODE === 'cputime' && i > 0;
      const tracing = (i === runs && process.env.TRACE_MODE !== 'none') || cpuOnly;
      const cdp = tracing && process.env.TRACE_MODE === 'cpu' ? await page.context().newCDPSession(page) : undefined;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      } else if (cpuOnly) await browser.startTracing(page, { categories: ['toplevel'] });
      else if (tracing)
        await browser.startTracing(page, {
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'v8.execute',
            'disabled-by-default-v8.cpu_profiler',
            'blink.user_timing',
            'loading',
            'v8',
          ],
        });
      if (atOnce) await fill();
      const t0 = Date.now();
      await page.getByRole('button', { name: /登\s*录/ }).click();
      await page.waitForURL((u) => !u.pathname.endsWith('/login'));
      await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
      await page.waitForFunction(() => !document.querySelector('#root .ant-spin-spinning'));
      const ms = Date.now() - t0;
      const res = await page.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => {
          const r = e as PerformanceResourceTiming;
          return {
            name: r.name.replace(/^https?:\/\/[^/]+/, ''),
            start: Math.round(r.startTime),
            end: Math.round(r.responseEnd),
            size: r.transferSize,
          };
        }),
      );
      const nav = await page.evaluate(() => Math.round(performance.timeOrigin));
      console.log(
        `run ${i}: click → table ${ms} ms (outside), landing nav starts ${nav - t0} ms after the click; landing page: ${JSON.stringify(await page.evaluate(() => (window as unknown as { __seen: unknown }).__seen))}`,
      );
      if (tracing) {
        if (cpuOnly) {
          const trace = JSON.parse((await browser.stopTracing()).toString()) as {
            traceEvents: {
              name: string;
              ph: string;
              pid: number;
              tid: number;
              tdur?: number;
              dur?: number;
              args?: { name?: string };
            }[];
          };
          const mains = new Set(
            trace.traceEvents
              .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
              .map((e) => `${e.pid}:${e.tid}`),
          );
          if (process.env.TRACE_DUMP) writeFileSync(process.env.TRACE_DUMP, JSON.stringify(trace));
          const cpu = trace.traceEvents
            .filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(`${e.pid}:${e.tid}`))
            .reduce((a, e) => a + (e.tdur ?? 0), 0);
          console.log(`cpu ${i}: renderer main thread CPU ${Math.round(cpu / 1000)} ms`);
          await context.close();
          continue;
        }
        if (cdp) writeFileSync(out, JSON.stringify((await cdp.send('Profiler.stop')).profile));
        else writeFileSync(out, await browser.stopTracing());
        for (const r of res)
          console.log(
            `  ${String(r.start).padStart(5)}–${String(r.end).padStart(5)} ${r.size > 0 ? 'net ' : 'cache'} ${r.name}`,
          );
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
