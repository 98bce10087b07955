import { chromium } from '@playwright/test';
import { createBenchDatabase } from '../lib/postgres.ts';
import { startServer, tempDir } from '../lib/server.ts';

const db = await createBenchDatabase();
const dir = tempDir('web');
const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (let run = 0; run < 2; run++) {
  const context = await browser.newContext({ baseURL: server.base, locale: 'zh-CN', viewport: { width: 1366, height: 800 } });
  await context.addInitScript(`(() => {
    const log = (window.__log = []);
    let t0;
    document.addEventListener('click', () => { t0 = performance.now(); const tick = () => { const r = document.getElementById('root'); log.push(Math.round(performance.now() - t0) + ' nodes=' + (r ? r.getElementsByTagName('*').length : -1) + ' path=' + location.pathname + ' tables=' + document.querySelectorAll('.ant-table').length + ' layouts=' + document.querySelectorAll('.ant-layout').length); if (performance.now() - t0 < 6000) setTimeout(tick, 50); }; tick(); }, true);
  })();`);
  const page = await context.newPage();
  page.on('console', (m) => console.log('console', m.text()));
  await page.goto('/esm/login');
  await page.waitForLoadState('networkidle');
  await page.getByPlaceholder('账号').fill('demo3');
  await page.getByPlaceholder('密码').fill('Esm@2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await page.waitForTimeout(1200);
  if (run) console.log('IMPORT ' + (await page.evaluate(async () => { const t = performance.now(); const names = performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('BasicLayout')); await import(names[0]!); return names[0] + ' ' + Math.round(performance.now() - t) + ' ms'; })));
  await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
  await page.waitForTimeout(300);
  const log = await page.evaluate(() => (window as unknown as { __log: string[] }).__log);
  if (run) console.log('TICKS ' + log.map((l) => l.split(' ').slice(0, 2).join(':')).join(' '));
  await context.close();
}
await browser.close();
process.exit(0);
