import { chromium } from '@playwright/test';
import { createBenchDatabase } from '../lib/postgres.ts';
import { startServer, tempDir } from '../lib/server.ts';

const db = await createBenchDatabase();
const dir = tempDir('web');
const server = await startServer({ dataDir: dir.dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const out: number[] = [];
for (let run = 0; run < 6; run++) {
  const context = await browser.newContext({ baseURL: server.base, locale: 'zh-CN', viewport: { width: 1366, height: 800 } });
  const res = await context.request.post('/esm-server/api/user/login', { data: { account: 'demo3', password: 'Esm@2026' } });
  if (!res.ok()) throw new Error('login');
  const page = await context.newPage();
  await page.goto('/esm/dashboard');
  await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
  const t = await page.evaluate(() => performance.now());
  if (run) out.push(Math.round(t));
  await context.close();
}
console.log('RESULT navigation → table (ms):', out.join(' '));
await browser.close();
process.exit(0);
