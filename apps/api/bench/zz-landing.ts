import { chromium } from '@playwright/test';
const base = process.env.BASE_URL ?? 'http://127.0.0.1:39101';
const typed = process.env.TYPED !== '0';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
for (let i = 0; i < Number(process.env.RUNS ?? 3); i++) {
  const context = await browser.newContext({ baseURL: base, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport: { width: 1366, height: 800 } });
  await context.addInitScript(`(() => {
    const seen = (window.__seen = {});
    const mark = (k, on) => { if (on && seen[k] === undefined) seen[k] = Math.round(performance.now()); };
    document.addEventListener('click', (e) => { if (e.target.closest && e.target.closest('button[type="submit"]')) seen.click = Math.round(performance.now()); }, true);
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
  await page.getByPlaceholder('账号').fill('demo3');
  await page.getByPlaceholder('密码').fill('Esm@2026');
  if (typed) await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
  await page.waitForFunction(() => (window as any).__seen.spinGone !== undefined);
  const r = await page.evaluate(() => {
    const s = (window as any).__seen; const c = s.click;
    const rel = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, (v as number) - c]));
    const res = performance.getEntriesByType('resource').filter((e) => e.startTime > c - 5).map((e: any) => `${e.name.replace(/^https?:\/\/[^/]+/, '').replace('/esm/assets/', '').replace('/esm-server/api/', 'API ')} ${Math.round(e.startTime - c)}-${Math.round(e.responseEnd - c)}`);
    return { rel, n: res.length, res };
  });
  console.log(JSON.stringify(r.rel), r.res.filter((x) => x.includes("login") || x.includes("Pager")).join(" | "));
  if (process.env.RES) console.log(r.res.join('\n'));
  await context.close();
}
await browser.close();
