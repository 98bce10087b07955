/**
 * Session states seen in the browser: the blocking dialogs of 201-205 and the
 * expired-session redirect of 10000007.
 */
import { expect, test } from '@playwright/test';
import { sql } from './db.ts';
import { loginThroughPage, settled, unfoldMenu, atPage } from './helpers.ts';
import { PAGES, LOGIN_PATH } from '../packages/contracts/src/index.ts';

test('a timed-out session shows the blocking 登录超时 dialog leading to the company home page', async ({ page }) => {
  await loginThroughPage(page, 'demo8');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  await sql(
    `UPDATE http_session SET expires_at = now() - interval '1 minute' WHERE user_id = (SELECT id FROM app_user WHERE account = 'demo8')`,
  );
  await page.reload();
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toContainText('登录超时');
  await expect(dialog).toContainText('即将跳转到公司首页，请重新登录。');
  await page.keyboard.press('Escape'); // blocking: Esc does not close it
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/esm\/login/); // COMPANY_HOME_URL defaults to the portal's login
});

test('an account disabled after sign-in gets the 登录失效 dialog', async ({ page }) => {
  await loginThroughPage(page, 'demo9');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  await sql(`UPDATE app_user SET enabled = false WHERE account = 'demo9'`);
  try {
    await page.reload();
    await expect(page.locator('.ant-modal-confirm')).toContainText('登录失效');
  } finally {
    await sql(`UPDATE app_user SET enabled = true WHERE account = 'demo9'`);
  }
});

test('a session that ends while working sends the next call to the login page, and back after login', async ({
  page,
}) => {
  await unfoldMenu(page);
  await loginThroughPage(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  // the landing page's own calls have answered: the next call is the click's
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await sql(`DELETE FROM http_session WHERE user_id = (SELECT id FROM app_user WHERE account = 'demo3')`);
  const menu = page.getByTestId('side-menu');
  await menu.getByText('系统管理', { exact: true }).click();
  await menu.getByText('访问日志', { exact: true }).click(); // the page's data call gets 10000007
  await expect(page).toHaveURL(
    (url) => url.pathname === LOGIN_PATH && url.searchParams.get('redirect') === PAGES.visitLog.path,
  );
  await page.getByPlaceholder('账号').fill('demo3');
  await page.getByPlaceholder('密码').fill('Esm@2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(atPage(PAGES.visitLog));
});
