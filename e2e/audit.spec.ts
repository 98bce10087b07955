/**
 * 审计校验: an internal admin opens it from 系统管理, verifies the chains (recorded, with who), sees a
 * row changed by SQL named, and exports the day heads as the file `pnpm audit:verify --heads` reads.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, apiUrl, atPage } from './helpers.ts';
import { sql } from './db.ts';
import { expectToast, signIn, unfoldMenu } from './helpers.ts';
import { filesApi, sessionApi, PAGES } from '../packages/contracts/src/index.ts';

const toastsGone = (page: Page) => expect(page.locator('.ant-message-notice')).toHaveCount(0);

test('demo3 verifies the audit chain, sees a row changed by SQL named, exports the day heads', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统管理', { exact: true }).click();
  await menu.getByText('审计校验', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.auditVerify));

  // a verification from the page: its result, when, by whom, and the head of each chain
  await page.getByRole('button', { name: '立即校验' }).click();
  await expectToast(page, /校验(通过|未通过)/);
  const last = page.getByTestId('audit-last');
  await expect(last).toContainText('审计校验页面 · 李娜');
  const heads = page.getByRole('table', { name: '各链链头' });
  await expect(
    heads.getByRole('row').filter({ hasText: '访问日志（查看、打印、下载、确认、保密协议、拒绝）' }),
  ).toBeVisible();
  await expect(heads.getByRole('row').filter({ hasText: '登录日志' })).toBeVisible();
  // the access log chain holds (other journeys may reset fixtures of other chains)
  await expect(page.getByRole('table', { name: '发现的问题' }).getByText('access_log', { exact: true })).toHaveCount(0);

  // someone with write access rewrites who viewed a drawing: the next verification names the row
  const [row] = await sql<{ id: number; chain_seq: number; user_name: string }>(
    `SELECT id, chain_seq, user_name FROM access_log ORDER BY chain_seq DESC LIMIT 1`,
  );
  await sql(`UPDATE access_log SET user_name = '某人' WHERE id = $1`, [row!.id]);
  try {
    await page.getByRole('button', { name: '立即校验' }).click();
    await expectToast(page, /校验未通过/);
    await expect(last).toContainText('未通过');
    await expect(page.getByRole('table', { name: '发现的问题' })).toContainText(
      `access_log：id ${row!.id}（链位置 ${row!.chain_seq}）的内容已被修改`,
    );
    await toastsGone(page);
    await page.screenshot({ path: 'e2e/screenshots/audit-verify-broken.png', fullPage: true });
  } finally {
    await sql(`UPDATE access_log SET user_name = $2 WHERE id = $1`, [row!.id, row!.user_name]);
  }
  await page.getByRole('button', { name: '立即校验' }).click();
  await expect(page.getByRole('table', { name: '发现的问题' }).getByText(`access_log：id ${row!.id}`)).toHaveCount(0);

  // the day heads: today's are there, and the export is the file audit:verify --heads reads
  const days = page.getByRole('table', { name: '每日链头' });
  const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  await expect(days.getByRole('row').filter({ hasText: today }).first()).toBeVisible();
  const total = Number((await page.getByText(/共 \d+ 条/).textContent())!.match(/\d+/)![0]);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出链头（JSON）' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-heads-\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.json$/);
  const exported = JSON.parse(await readFile((await file.path())!, 'utf8')) as {
    kind: string;
    heads: { table: string; seq: number; hash: string }[];
  };
  expect(exported.kind).toBe('esm-audit-heads');
  expect(exported.heads).toHaveLength(total);
  const todaysAccess = exported.heads.find((h) => h.table === 'access_log');
  const [stored] = await sql<{ row_hash: string }>(`SELECT row_hash FROM access_log WHERE chain_seq = $1`, [
    todaysAccess!.seq,
  ]);
  expect(todaysAccess!.hash).toBe(stored!.row_hash);

  await toastsGone(page);
  await page.screenshot({ path: 'e2e/screenshots/audit-verify-1366.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // on a phone the button stays within the screen's width (the tables scroll sideways)
  const verify = page.getByRole('button', { name: '立即校验' });
  await verify.scrollIntoViewIfNeeded();
  await expect(verify).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'e2e/screenshots/audit-verify-390.png', fullPage: true });
});

test('泄露追溯: a PDF demo2 downloaded, found outside, and its copy code typed by hand both lead back to demo2', async ({
  page,
  browser,
}) => {
  // demo2 downloads a drawing it may see (the agreement accepted, as a supplier must first)
  const [file] = await sql<{ id: number; standard_code: string }>(
    `SELECT f.id, f.standard_code FROM standard_file f WHERE f.status = 'EFFECTIVE' AND f.file_type = 'pdf'
       AND EXISTS (SELECT 1 FROM supplier_material s WHERE s.supplier_code = 'S001' AND s.material_code = f.material_code)
       AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = 'S001' AND g.material_code = f.material_code AND g.revoked_at IS NULL AND g.valid_from <= now() AND g.valid_until > now())
     ORDER BY f.standard_code LIMIT 1`,
  );
  await sql(
    `INSERT INTO keepsecret_acceptance (agreement_id, user_id, supplier_code)
     SELECT a.id, u.id, 'S001' FROM keepsecret_agreement a, app_user u WHERE u.account = 'demo2' AND a.version = (SELECT max(version) FROM keepsecret_agreement)
     ON CONFLICT DO NOTHING`,
  );
  const supplier = await browser.newContext();
  const login = await supplier.request.post(apiUrl(sessionApi.login), {
    data: { account: 'demo2', password: PASSWORD },
  });
  expect(login.ok()).toBe(true);
  const res = await supplier.request.post(apiUrl(filesApi.download), { data: { id: file!.id } });
  expect(res.status()).toBe(200);
  const bytes = await res.body();
  await supplier.close();
  const [row] = await sql<{ id: number; copy_code: string; chain_seq: number }>(
    `SELECT id, copy_code, chain_seq FROM access_log WHERE user_account = 'demo2' AND action = 'DOWNLOAD' ORDER BY id DESC LIMIT 1`,
  );

  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统管理', { exact: true }).click();
  await menu.getByText('泄露追溯', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.leakTrace));

  // the PDF found outside
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: '外部发现.pdf', mimeType: 'application/pdf', buffer: bytes });
  const result = page.getByTestId('trace-result');
  await expect(result).toContainText('读自 PDF 元数据');
  await expect(result).toContainText('demo2');
  await expect(result).toContainText('S001 青岛海达精密机械有限公司');
  await expect(result).toContainText(file!.standard_code);
  await expect(result).toContainText(`访问记录 ${row!.id}`);
  await expect(result).toContainText(`访问日志链第 ${row!.chain_seq} 行`);

  // the code read off a photo, typed with a space and in lower case
  const code = row!.copy_code;
  await page.getByRole('textbox', { name: '复制码' }).fill(`${code.slice(0, 5)} ${code.slice(5)}`.toLowerCase());
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(result).toContainText('手工输入');
  await expect(result).toContainText(`访问记录 ${row!.id}`);

  // a code of the wrong shape: said at the field
  await page.getByRole('textbox', { name: '复制码' }).fill('12345');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(page.getByText('复制码应为 10 位字母和数字（如 AB3DE-7GH9K）')).toBeVisible();

  await page.getByRole('textbox', { name: '复制码' }).fill(code);
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(result).toContainText(`访问记录 ${row!.id}`);
  await page.screenshot({ path: 'e2e/screenshots/leak-trace-1366.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(result).toContainText('demo2');
  await page.screenshot({ path: 'e2e/screenshots/leak-trace-390.png', fullPage: true });
});
