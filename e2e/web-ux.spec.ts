/**
 * What acceptance testing found in daily use of the portal's shell and messages, one journey per
 * finding: a page whose code fails to load (a redeploy, a network blip), pages opening scrolled
 * down and menu entries that were not links, the supplier's inbox and confirm box, messages for a
 * notice that is not the user's and for a network failure, and the company-site links on a
 * standalone deployment. Screenshots of each at 390, 600 and 1366 px go to e2e/screenshots/.
 */
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { expectToast, PASSWORD, settled, signIn, unfoldMenu, atPage, apiUrl } from './helpers.ts';
import { PAGES, visitsApi } from '../packages/contracts/src/index.ts';

const WIDTHS = [390, 600, 1366] as const;

/** The page at each width, for a person to look at (e2e/screenshots/, not committed). */
async function shots(page: Page, name: string, ready?: () => Promise<void>) {
  const size = page.viewportSize()!;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await ready?.();
    await page.screenshot({ path: `e2e/screenshots/webux-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

const tableSettled = async (page: Page) => {
  await expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-table-wrapper .ant-spin-blur')).toHaveCount(0);
};
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
const PHONE_LOG_CHUNK = '**/assets/mobilePhoneLog-*.js';

test('a page opened from the menu starts at its top; menu entries are links', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  // a short window, so that the list scrolls
  await page.setViewportSize({ width: 1366, height: 500 });
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  await tableSettled(page);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => scrollY(page)).toBeGreaterThan(100);

  const entry = page.getByTestId('side-menu').getByRole('link', { name: '登录日志', exact: true });
  // a real link: a middle click or 在新标签页中打开 opens the page
  await expect(entry).toHaveAttribute('href', PAGES.signInLog.path);
  await entry.click();
  await expect(page).toHaveURL(atPage(PAGES.signInLog));
  await settled(page);
  await expect.poll(() => scrollY(page)).toBe(0);
  await expect(page.getByTestId('breadcrumb')).toContainText('登录日志');

  // back: where the user was on the previous page is the browser's to restore, not reset to the top
  await page.goBack();
  await expect(page).toHaveURL(atPage(PAGES.visitLog));

  // narrow: the drawer's entries are links as well
  await page.setViewportSize({ width: 390, height: 800 });
  await page.getByRole('button', { name: '打开菜单' }).click();
  const drawerEntry = page.locator('.ant-drawer').getByRole('link', { name: '手机号查看日志', exact: true });
  await expect(drawerEntry).toHaveAttribute('href', PAGES.mobilePhoneLog.path);
  await page.screenshot({ path: 'e2e/screenshots/webux-menu-links-390.png' });
  await drawerEntry.click();
  await expect(page).toHaveURL(atPage(PAGES.mobilePhoneLog));
  await expect(page.locator('.ant-drawer-open')).toHaveCount(0);
  await expect.poll(() => scrollY(page)).toBe(0);
});

test('a page whose code fails to load says so in Chinese inside the layout, and 重新加载 brings it', async ({
  page,
}) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  // the network drops the page's code (not a new build: the server still has the file)
  await page.route(PHONE_LOG_CHUNK, (r) => r.abort());
  await page.getByTestId('side-menu').getByRole('link', { name: '手机号查看日志', exact: true }).click();
  const failed = page.getByTestId('route-error');
  await expect(failed).toContainText('页面加载失败');
  await expect(failed).toContainText('请重新加载页面');
  await expect(page.getByText('Unexpected Application Error')).toHaveCount(0);
  await expect(page.getByText(/Hey developer/)).toHaveCount(0);
  // inside the layout: header, menu and footer stay
  await expect(page.getByTestId('logout')).toBeVisible();
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await expect(page.getByTestId('footer')).toBeVisible();
  await shots(page, 'chunk-failed', () => expect(failed.getByRole('button', { name: '重新加载' })).toBeVisible());

  await page.unroute(PHONE_LOG_CHUNK);
  await failed.getByRole('button', { name: '重新加载' }).click();
  await expect(page).toHaveURL(atPage(PAGES.mobilePhoneLog));
  await settled(page);
  await expect(page.getByTestId('route-error')).toHaveCount(0);
  await expect(page.getByTestId('breadcrumb')).toContainText('手机号查看日志');
  await expect(page.locator('.ant-table-wrapper')).toBeVisible();
});

test('a page’s code missing after a redeploy reloads the page once by itself, and never in a loop', async ({
  page,
}) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  let loads = 0;
  page.on('load', () => loads++);
  // the file is gone from the server (a new build replaced it) until the page is loaded afresh
  let gone = true;
  const missing = {
    status: 404,
    contentType: 'application/json',
    body: '{"success":false,"code":"404","message":"页面不存在","data":null}',
  };
  await page.route(PHONE_LOG_CHUNK, (r) => {
    if (!gone) return r.continue();
    // the portal asks the server whether the file is gone (HEAD) before it reloads
    if (r.request().method() === 'HEAD') gone = false;
    return r.fulfill(missing);
  });
  const entry = page.getByTestId('side-menu').getByRole('link', { name: '手机号查看日志', exact: true });
  await entry.click();
  await expect(page).toHaveURL(atPage(PAGES.mobilePhoneLog));
  await expect.poll(() => loads).toBe(1);
  await settled(page);
  await expect(page.getByTestId('breadcrumb')).toContainText('手机号查看日志');
  await expect(page.locator('.ant-table-wrapper')).toBeVisible();
  await expect(page.getByTestId('route-error')).toHaveCount(0);

  // still missing after its reload: the message and 重新加载, no second reload
  await page.unroute(PHONE_LOG_CHUNK);
  await page.route(PHONE_LOG_CHUNK, (r) => r.fulfill(missing));
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  await page.evaluate(() => sessionStorage.removeItem('esm.chunkReload'));
  loads = 0;
  await entry.click();
  await expect(page.getByTestId('route-error').getByRole('button', { name: '重新加载' })).toBeVisible();
  await expect(page.getByTestId('route-error')).toContainText('页面加载失败');
  expect(loads).toBe(1);
  await expect(page.getByTestId('side-menu')).toBeVisible();
});

/** The demo account of each demo supplier. */
const ACCOUNT_OF: Record<string, string> = { S001: 'demo2', S002: 'demo4' };

test('the inbox’s 未读 agrees with the bell: a withdrawn notice is not unread work, and comes last', async ({
  page,
}) => {
  const [withdrawn] = await sql<{ number: string; supplier_code: string }>(
    `SELECT n.number, r.supplier_code FROM change_notice n JOIN notice_recipient r ON r.notice_id = n.id WHERE n.status = 'WITHDRAWN' AND r.status = 'UNREAD' ORDER BY n.id LIMIT 1`,
  );
  expect(withdrawn).toBeDefined();
  const supplier = withdrawn!.supplier_code;
  const unread = await sql<{ number: string }>(
    `SELECT n.number FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id WHERE r.supplier_code = $1 AND r.status = 'UNREAD' AND n.status = 'PUBLISHED' ORDER BY n.number`,
    [supplier],
  );
  await signIn(page, ACCOUNT_OF[supplier]!);
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notice-summary')).toContainText(`未读 ${unread.length}`);

  await page.goto(PAGES.noticeList.path);
  await tableSettled(page);
  const rows = page.locator('.ant-table-row');
  // every state together: the withdrawn notice is the last row
  await expect(rows.last()).toContainText(withdrawn!.number);
  await expect(rows.last()).toContainText('已撤回');

  // 未读: what the bell counts, nothing withdrawn
  await page.getByRole('combobox', { name: '状态' }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: /^未读$/ })
    .click();
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  await expect(rows).toHaveCount(unread.length);
  await expect(page.locator('.ant-table-tbody')).not.toContainText(withdrawn!.number);
});

test('another supplier’s notice by its address: one message, 返回列表, no 重试', async ({ page }) => {
  const [foreign] = await sql<{ id: number }>(
    `SELECT n.id FROM change_notice n WHERE n.status <> 'DRAFT' AND NOT EXISTS (SELECT 1 FROM notice_recipient r WHERE r.notice_id = n.id AND r.supplier_code = 'S001') ORDER BY n.id LIMIT 1`,
  );
  expect(foreign).toBeDefined();
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(`${PAGES.noticeOfChangeOfDrawings.path}?id=${foreign!.id}`);
  const result = page.getByTestId('not-found-result');
  await expect(result).toContainText('变更通知不存在或无权查看');
  // said once: no toast beside it (counted at once: a toast is raised before the page shows the error)
  expect(await page.locator('.ant-message-notice').count()).toBe(0);
  await expect(page.getByText('变更通知不存在或无权查看')).toHaveCount(1);
  await expect(page.getByText(/状态码/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /重\s*试/ })).toHaveCount(0);
  await shots(page, 'notice-not-found', () => expect(result).toBeVisible());
  await result.getByRole('button', { name: '返回列表' }).click();
  await expect(page).toHaveURL(atPage(PAGES.noticeList));
});

test('a list that could not be refreshed says 网络连接失败 and marks its rows as not refreshed', async ({ page }) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  await tableSettled(page);
  const rows = page.locator('.ant-table-row');
  await expect(rows.first()).toBeVisible();

  const LIST = `**${apiUrl(visitsApi.page)}`;
  await page.route(LIST, (r) => r.abort('internetdisconnected'));
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  await expectToast(page, '网络连接失败');
  await expect(page.getByText('Network Error')).toHaveCount(0);
  const stale = page.getByTestId('stale-warning');
  await expect(stale).toContainText('数据未能刷新');
  await expect(stale).toContainText('网络连接失败');
  await expect(rows.first()).toBeVisible();
  await shots(page, 'list-not-refreshed', () => expect(stale).toBeVisible());

  await page.unroute(LIST);
  await stale.getByRole('button', { name: /重\s*试/ }).click();
  await expect(stale).toHaveCount(0);
  await expect(rows.first()).toBeVisible();
});

test('standalone: no company-site links (logo, 帮助, agreements), the logo stays', async ({ page }) => {
  await page.goto('/esm/login');
  const footer = page.getByTestId('footer');
  await expect(footer).toContainText('联系电话');
  await expect(footer.getByRole('link', { name: '用户协议' })).toHaveCount(0);
  await expect(footer.getByRole('link', { name: '帮助中心' })).toHaveCount(0);
  await expect(footer).not.toContainText('平台协议');
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  const logo = page.getByTestId('header-logo');
  await expect(logo).toContainText('ESM 图纸档案管理平台');
  // not a dead link to this server's 404
  expect(await logo.evaluate((e) => e.tagName)).toBe('DIV');
  await expect(page.getByTestId('footer').getByRole('link', { name: '用户协议' })).toHaveCount(0);
  await shots(page, 'standalone-shell', () => expect(page.getByTestId('breadcrumb')).toBeVisible());
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(page.getByTestId('narrow-navbar')).toBeVisible();
  await expect(page.getByTestId('narrow-navbar').getByRole('link', { name: '帮助' })).toHaveCount(0);
});

test.describe('inside the company site (COMPANY_SITE_URL)', () => {
  // the second portal of playwright.config.ts (e2e/serve.ts with E2E_OIDC) sets COMPANY_SITE_URL
  test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3300) + 1000}` });

  test('logo, 帮助 and the agreements lead to the company site', async ({ page }) => {
    const SITE = 'https://www.example.com';
    await page.goto('/esm/login');
    const footer = page.getByTestId('footer');
    await expect(footer.getByRole('link', { name: '用户协议' })).toHaveAttribute('href', `${SITE}/registe?types=1`);
    await expect(footer.getByRole('link', { name: '网站服务协议' })).toHaveAttribute(
      'href',
      `${SITE}/protocol?id=target40`,
    );
    await expect(footer.getByRole('link', { name: '帮助中心' })).toHaveAttribute('href', `${SITE}/help`);
    // the password form (this portal offers the company sign-in beside it)
    await page.getByPlaceholder('账号').fill('demo3');
    await page.getByPlaceholder('密码').fill(PASSWORD);
    await page.getByRole('button', { name: /^登\s*录$/ }).click();
    await expect(page).toHaveURL(atPage(PAGES.dashboard));
    await settled(page);
    await expect(page.getByTestId('header-logo')).toHaveAttribute('href', `${SITE}/rem-login-new`);
    await expect(page.getByTestId('footer').getByRole('link', { name: '个人信息保护政策' })).toHaveAttribute(
      'href',
      `${SITE}/registe?types=2`,
    );
    await shots(page, 'company-site-shell', () => expect(page.getByTestId('breadcrumb')).toBeVisible());
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(page.getByTestId('narrow-navbar').getByRole('link', { name: '帮助' })).toHaveAttribute(
      'href',
      `${SITE}/help`,
    );
  });
});
