/**
 * The shared PagedTable on a real paged endpoint: the visit log fills as the user moves around,
 * and paging, page size, filters and sort all go to the server.
 */
import { expect, test } from '@playwright/test';
import { sql } from './db.ts';
import { loginThroughPage, pickOption, settled, signIn, unfoldMenu, apiUrl, atPage } from './helpers.ts';
import { PAGES, visitsApi } from '../packages/contracts/src/index.ts';

test('visit log: rows from real visits, 共 N 条, filter → page 1, size changer, sort', async ({ page }) => {
  // 25 visits of a supplier in the database, plus the ones this test makes.
  await sql(`INSERT INTO visit_event (user_id, user_type, user_code, user_name, menu_name, path, ip)
             SELECT id, type, account, nick, '企业标准档案', '${PAGES.dashboardS.path}', '10.0.0.' || g
             FROM app_user, generate_series(1, 25) g WHERE account = 'demo4'`);
  // the landing page's visit is written before the log is opened (the state this test reads)
  const landed = page.waitForResponse((r) => r.url().endsWith(apiUrl(visitsApi.visit)));
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await landed;
  await page.goto(PAGES.visitLog.path);
  const table = page.locator('.ant-table');
  await expect(table).toContainText('demo3');
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  const total = Number((await page.getByText(/共 \d+ 条/).textContent())!.match(/\d+/)![0]);
  expect(total).toBeGreaterThanOrEqual(27);
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(10);

  // page 2, then a filter goes back to page 1
  await page.locator('.ant-pagination-item-2').click();
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('2');
  await page.getByRole('combobox', { name: '用户类型' }).click();
  await page.locator('.ant-select-item-option').filter({ hasText: '4 · 供应商' }).click();
  const [{ n }] = await sql<{ n: string }>(`SELECT count(*) AS n FROM visit_event WHERE user_type = 4`);
  await expect(page.getByText(`共 ${n} 条`)).toBeVisible();
  await expect(page.locator('.ant-pagination-item-active')).toHaveText('1');

  // page size 20
  // (on a busy machine a click on an option still sliding in can miss: pick again until it shows)
  const sizer = page.locator('.ant-pagination-options .ant-select');
  await expect(async () => {
    if (!(await sizer.innerText()).includes('20 条/页')) {
      await sizer.click();
      await page.locator('.ant-select-item-option').filter({ hasText: '20 条/页' }).click({ timeout: 5_000 });
    }
    await expect(sizer).toContainText('20 条/页', { timeout: 2_000 });
  }).toPass();
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(20);

  // keyword search with no match shows the empty text
  await page.getByRole('textbox', { name: '关键字' }).fill('nobody-like-this');
  await page.getByRole('textbox', { name: '关键字' }).press('Enter');
  await expect(table).toContainText('没有匹配的结果');
  await page.getByRole('textbox', { name: '关键字' }).fill('');
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(page.getByText(`共 ${n} 条`)).toBeVisible();

  // sort cycles ascend → descend → none
  const header = page.getByRole('columnheader', { name: '访问时间' });
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await header.click();
  await expect(header).not.toHaveAttribute('aria-sort', /ascending|descending/);
});

test('a supplier cannot open the visit log (server refuses, page says 没有权限)', async ({ page, request }) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(PAGES.visitLog.path);
  await expect(page.getByText('没有权限')).toBeVisible();
  const res = await page.request.post(apiUrl(visitsApi.page), { data: {} });
  expect(res.status()).toBe(403);
  void request;
});

test('登录日志: a refused sign-in and the one after it are both on the page, filterable by result', async ({
  page,
}) => {
  await unfoldMenu(page);
  // a wrong password first, as a user mistyping it would
  await loginThroughPage(page, 'demo7', 'Wrong-Password1');
  await expect(page.getByText('账号或密码错误')).toBeVisible();
  await loginThroughPage(page, 'demo7');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));

  await page.getByRole('menuitem', { name: '系统管理' }).click();
  await page.getByRole('menuitem', { name: '登录日志' }).click();
  await expect(page).toHaveURL(atPage(PAGES.signInLog));
  const table = page.locator('.ant-table');
  const rows = table.locator('tbody tr.ant-table-row');
  // newest first: this sign-in, then the refused one
  await expect(rows.first()).toContainText('demo7');
  await expect(rows.first()).toContainText('成功');
  await expect(rows.nth(1)).toContainText('密码错误');
  await expect(rows.nth(1)).toContainText('失败');
  await expect(rows.nth(1)).toContainText('杨磊');
  await settled(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'e2e/screenshots/sign-in-log.png' });

  // only refusals of demo7
  const form = page.locator('form').first();
  await pickOption(page, form, '结果', '失败');
  await page.getByRole('textbox', { name: '关键字' }).fill('demo7');
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  const [{ n }] = await sql<{ n: string }>(
    `SELECT count(*) AS n FROM sign_in_log WHERE account = 'demo7' AND NOT success`,
  );
  await expect(page.getByText(`共 ${n} 条`)).toBeVisible();
  await expect(rows.filter({ hasText: '成功' })).toHaveCount(0);
  await page.setViewportSize({ width: 600, height: 800 });
  await settled(page);
  await page.screenshot({ path: 'e2e/screenshots/sign-in-log-narrow.png', fullPage: true });
});
