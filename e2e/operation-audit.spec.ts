/**
 * 操作审计: an internal admin opens it from 系统管理, reads the workflows' acts newest first, and
 * narrows them by 业务类型 and 操作人; the count is the database's.
 */
import { expect, test } from '@playwright/test';
import { PAGES } from '../packages/contracts/src/pages.ts';
import { sql } from './db.ts';
import { pickOption, settled, signIn, unfoldMenu } from './helpers.ts';

test('demo3 reads the countersign acts of one operator in 操作审计', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统管理', { exact: true }).click();
  await menu.getByText(PAGES.operationAudit.title, { exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${PAGES.operationAudit.path}$`));
  await expect(page.getByTestId('breadcrumb')).toContainText('系统管理');

  const rows = page.locator('.ant-table tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible();
  await settled(page);
  await page.screenshot({ path: 'e2e/screenshots/operation-audit-1366.png' });

  // the countersign acts of the operator of the newest one
  const [newest] = await sql<{ user_account: string; user_name: string }>(
    `SELECT user_account, user_name FROM countersign_event ORDER BY created_at DESC, id DESC LIMIT 1`,
  );
  const form = page.getByTestId('operation-audit-filters');
  await pickOption(page, form, '业务类型', '会签单');
  await page.getByRole('textbox', { name: '操作人' }).fill(newest!.user_account);
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  const [{ n }] = await sql<{ n: string }>(`SELECT count(*) AS n FROM countersign_event WHERE user_account = $1`, [
    newest!.user_account,
  ]);
  await expect(page.getByText(`共 ${n} 条`)).toBeVisible();
  await expect(rows.first()).toContainText(newest!.user_name);
  for (const label of ['变更通知', '授权申请', '图纸问题'])
    await expect(rows.filter({ hasText: label })).toHaveCount(0);

  await page.setViewportSize({ width: 390, height: 800 });
  await settled(page);
  await page.screenshot({ path: 'e2e/screenshots/operation-audit-390.png', fullPage: true });
});
