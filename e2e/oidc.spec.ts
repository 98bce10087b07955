/**
 * Sign-in from the company home page, clicked in Chromium through a real OpenID
 * provider (oidc-provider on 127.0.0.1, started by e2e/serve.ts with E2E_OIDC=true on a portal of its own): the login page's
 * 从公司门户登录, the provider's own login form, back to the portal signed in on the type's
 * landing page; refusals as the blocking dialogs of the legacy portal; logout through the provider's
 * sign-out back to the company home page.
 */
import { expect, test, type Page } from '@playwright/test';
import { e2eDatabaseName, sql as sqlOn } from './db.ts';
import { settled, atPage, apiUrl } from './helpers.ts';
import { PAGES, sessionApi, LOGIN_PATH } from '../packages/contracts/src/index.ts';

// The portal with OIDC_* configured: the second web server of playwright.config.ts.
test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3300) + 1000}` });
const sql = <T extends Record<string, unknown>>(text: string) => sqlOn<T>(text, [], `${e2eDatabaseName}_oidc`);

test.beforeEach(async ({ page }) => {
  // the provider's development pages import a web font from the internet: offline here
  await page.route(/fonts\.googleapis\.com/, (route) => route.abort());
});

/** At the provider's login form (reached from the portal's button): signs in as `accountId`. */
async function signInAtProvider(page: Page, accountId: string) {
  await expect(page).toHaveURL(/:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(accountId);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

async function startAtLoginPage(page: Page, query = '') {
  await page.goto(`/esm/login${query}`);
  await page.getByTestId('company-login').click();
}

async function expectDialog(page: Page, title: string) {
  const dialog = page.locator('.ant-modal-confirm');
  await expect(dialog).toContainText(title);
  await expect(dialog).toContainText('即将跳转到公司首页，请重新登录。');
  return dialog;
}

test('the login page offers 从公司门户登录 next to the password form', async ({ page }) => {
  await page.goto('/esm/login');
  await expect(page.getByTestId('company-login')).toHaveText(/从公司门户登录/);
  await expect(page.getByPlaceholder('账号')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/oidc-login.png' });
  await page.setViewportSize({ width: 600, height: 800 });
  await expect(page.getByTestId('company-login')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/oidc-login-narrow.png', fullPage: true });
});

test('an internal user signs in at the company provider and lands on the dashboard; logout signs out there too', async ({
  page,
}) => {
  await startAtLoginPage(page);
  await signInAtProvider(page, 'zhang.demo3');
  // back at /esm with the hand-off: the session check posts it, the parameters leave the address bar
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  await expect(page.getByTestId('logout')).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  const [row] = await sql<{ source: string; success: boolean }>(
    `SELECT source, success FROM sign_in_log WHERE account = 'demo3' ORDER BY id DESC LIMIT 1`,
  );
  expect(row).toEqual({ source: 'oidc', success: true });

  await page.getByTestId('logout').click();
  // the provider's end-session page: confirm, and it returns to the company home page
  await expect(page).toHaveURL(/:\d+\/session\/end/);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await expect(page).toHaveURL(/\/esm\/login$/);
  await expect(page.getByTestId('company-login')).toBeVisible();
  // signed out at the provider too: the next company sign-in asks for the login again
  await page.getByTestId('company-login').click();
  await expect(page.locator('input[name="login"]')).toBeVisible();
});

test('a supplier signs in from the company home page with standardCode kept', async ({ page }) => {
  // the company home page opened the portal with a standard code; not signed in yet
  await page.goto('/esm?standardCode=Q%2FHD-001');
  await expect(page).toHaveURL(/\/esm\/login\?redirect=/);
  await page.getByTestId('company-login').click();
  await signInAtProvider(page, 'li.demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await settled(page);
  await expect(page.getByTestId('logout')).toBeVisible();
});

test('a page opened without a session is where the company sign-in returns to', async ({ page }) => {
  // a link to the inbox (e.g. from a notice mail): the login page, then the company's provider
  await page.goto(PAGES.noticeList.path);
  await expect(page).toHaveURL(atPage({ path: LOGIN_PATH }, `?redirect=${encodeURIComponent(PAGES.noticeList.path)}`));
  await page.getByTestId('company-login').click();
  await signInAtProvider(page, 'li.demo2');
  await expect(page).toHaveURL(atPage(PAGES.noticeList));
  await settled(page);
  await expect(page.getByTestId('breadcrumb')).toContainText('图纸变更通知');
  // used once: the portal's address now leads to the landing page again
  await page.goto('/esm');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
});

test('unknown account → 没有权限 dialog leading to the company home page', async ({ page }) => {
  await startAtLoginPage(page);
  await signInAtProvider(page, 'wang.nobody');
  const dialog = await expectDialog(page, '没有权限');
  await page.screenshot({ path: 'e2e/screenshots/oidc-refused.png' });
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
  await expect(page).toHaveURL(/\/esm\/login$/); // COMPANY_HOME_URL defaults to the portal's login
  await expect(page.getByTestId('company-login')).toBeVisible();
});

test('wrong user type → 登录失效 dialog', async ({ page }) => {
  await startAtLoginPage(page);
  await signInAtProvider(page, 'zhao.wrongtype');
  await expectDialog(page, '登录失效');
  const [row] = await sql<{ code: string }>(
    `SELECT code FROM sign_in_log WHERE account = 'demo8' AND source = 'oidc' ORDER BY id DESC LIMIT 1`,
  );
  expect(row!.code).toBe('204');
});

test('disabled account → 登录失效 dialog', async ({ page }) => {
  await sql(`UPDATE app_user SET enabled = false WHERE account = 'demo9'`);
  try {
    await startAtLoginPage(page);
    await signInAtProvider(page, 'zhou.demo9');
    await expectDialog(page, '登录失效');
    const [row] = await sql<{ code: string }>(
      `SELECT code FROM sign_in_log WHERE account = 'demo9' AND source = 'oidc' ORDER BY id DESC LIMIT 1`,
    );
    expect(row!.code).toBe('203');
  } finally {
    await sql(`UPDATE app_user SET enabled = true WHERE account = 'demo9'`);
  }
});

test('tampered state → 登录错误 dialog', async ({ page }) => {
  // the hand-off's state is altered between the provider and the portal's server
  await page.route(`**${apiUrl(sessionApi.current)}`, async (route) => {
    const body = route.request().postDataJSON() as Record<string, string> | null;
    if (!body?.state) return route.continue();
    await route.continue({ postData: JSON.stringify({ ...body, state: `${body.state}x` }) });
  });
  await startAtLoginPage(page);
  await signInAtProvider(page, 'zhang.demo3');
  await expectDialog(page, '登录错误');
  const [row] = await sql<{ reason: string }>(
    `SELECT reason FROM sign_in_log WHERE source = 'oidc' ORDER BY id DESC LIMIT 1`,
  );
  expect(row!.reason).toContain('state');
});

test('a replayed hand-off (its address opened again in another browser) → 登录错误 dialog', async ({
  page,
  browser,
}) => {
  let handoff = '';
  page.on('request', (r) => {
    if (/\/esm\?(.*&)?code=/.test(r.url())) handoff = r.url();
  });
  await startAtLoginPage(page);
  await signInAtProvider(page, 'zhang.demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  expect(handoff).toContain('code=');
  const other = await browser.newContext();
  try {
    const thief = await other.newPage();
    await thief.goto(handoff);
    await expectDialog(thief, '登录错误');
  } finally {
    await other.close();
  }
});

test('a hand-off that took too long (expired) → 登录错误 dialog', async ({ page }) => {
  await startAtLoginPage(page);
  await expect(page.locator('input[name="login"]')).toBeVisible();
  // the user lingered at the provider's form past the portal's 10 minutes
  await sql(
    `UPDATE http_session SET data = jsonb_set(data, '{oidc,at}', to_jsonb((extract(epoch from now()) * 1000 - 11 * 60000)::bigint)) WHERE data ? 'oidc'`,
  );
  await signInAtProvider(page, 'zhang.demo3');
  await expectDialog(page, '登录错误');
});
