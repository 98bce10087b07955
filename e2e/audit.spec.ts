/**
 * 审计校验: an internal admin opens it from 系统管理, verifies the chains (recorded, with who), sees a
 * row changed by SQL named, and exports the day heads as the file `pnpm audit:verify --heads` reads.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { expectToast, loginThroughPage, unfoldMenu } from './helpers.ts';

const toastsGone = (page: Page) => expect(page.locator('.ant-message-notice')).toHaveCount(0);

test('demo3 verifies the audit chain, sees a row changed by SQL named, exports the day heads', async ({ page }) => {
  await unfoldMenu(page);
  await loginThroughPage(page, 'demo3');
  await expect(page).toHaveURL(/dashboard$/);
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统管理', { exact: true }).click();
  await menu.getByText('审计校验', { exact: true }).click();
  await expect(page).toHaveURL(/\/esm\/system\/auditVerify$/);

  // a verification from the page: its result, when, by whom, and the head of each chain
  await page.getByRole('button', { name: '立即校验' }).click();
  await expectToast(page, /校验(通过|未通过)/);
  const last = page.getByTestId('audit-last');
  await expect(last).toContainText('审计校验页面 · 李娜');
  const heads = page.getByRole('table', { name: '各链链头' });
  await expect(heads.getByRole('row').filter({ hasText: '访问日志（查看、打印、下载、确认、保密协议、拒绝）' })).toBeVisible();
  await expect(heads.getByRole('row').filter({ hasText: '登录日志' })).toBeVisible();
  // the access log chain holds (other journeys may reset fixtures of other chains)
  await expect(page.getByRole('table', { name: '发现的问题' }).getByText('access_log', { exact: true })).toHaveCount(0);

  // someone with write access rewrites who viewed a drawing: the next verification names the row
  const [row] = await sql<{ id: number; chain_seq: number; user_name: string }>(`SELECT id, chain_seq, user_name FROM access_log ORDER BY chain_seq DESC LIMIT 1`);
  await sql(`UPDATE access_log SET user_name = '某人' WHERE id = $1`, [row!.id]);
  try {
    await page.getByRole('button', { name: '立即校验' }).click();
    await expectToast(page, /校验未通过/);
    await expect(last).toContainText('未通过');
    await expect(page.getByRole('table', { name: '发现的问题' })).toContainText(`access_log：id ${row!.id}（链位置 ${row!.chain_seq}）的内容已被修改`);
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
  const exported = JSON.parse(await readFile((await file.path())!, 'utf8')) as { kind: string; heads: { table: string; seq: number; hash: string }[] };
  expect(exported.kind).toBe('esm-audit-heads');
  expect(exported.heads).toHaveLength(total);
  const todaysAccess = exported.heads.find((h) => h.table === 'access_log');
  const [stored] = await sql<{ row_hash: string }>(`SELECT row_hash FROM access_log WHERE chain_seq = $1`, [todaysAccess!.seq]);
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
