import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { API_BASE } from '../packages/contracts/src/routes.ts';
import { SESSION_PATHS } from '../packages/contracts/src/session-basics.ts';
import type { EndpointDef } from '../packages/contracts/src/endpoint.ts';
import type { RouteDef } from '../packages/contracts/src/pages.ts';

export const PASSWORD = 'Esm@2026';

/** Where the page posts a call: `endpoint` is its contract object (`noticesApi.create`), so the path is the declared one. */
export const apiUrl = (endpoint: Pick<EndpointDef, 'path'>) => `${API_BASE}/${endpoint.path}`;

/**
 * The address of a page of PAGES, as `toHaveURL` expects it: the page's path (and `search`, a query
 * string, when given) at the end of the URL.
 */
export const atPage = (page: Pick<RouteDef, 'path'>, search = '') =>
  new RegExp((page.path + search).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');

/** Where each account's signed-in storage state is kept for the run (Playwright empties test-results/ at its start). */
const AUTH_DIR = fileURLToPath(new URL('../test-results/.auth', import.meta.url));

/**
 * Signs `account` in through the login call, not the form, and opens the portal at `/esm/` (the
 * account's landing page, where the form would have taken it). The journeys about signing in use
 * loginThroughPage. Each account's session cookie is kept as a storage state and reused while the
 * server still accepts it (a journey may have signed it out): one password check per account
 * per run instead of one per journey.
 */
export async function signIn(page: Page, account: string, password = PASSWORD) {
  await sessionFor(page.context(), account, password);
  await page.goto('/esm/');
}

/** 退出 in the header, and the login page reached: the logout's answer has cleared the session cookie. */
export async function signOut(page: Page) {
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/esm\/login/);
}

/** A session for `account` in `context` (its cookie), without opening a page. */
export async function sessionFor(context: BrowserContext, account: string, password = PASSWORD) {
  const file = path.join(AUTH_DIR, `${account}.json`);
  const saved = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as Awaited<ReturnType<BrowserContext['storageState']>>,
    () => undefined,
  );
  if (saved && password === PASSWORD) {
    await context.addCookies(saved.cookies);
    const check = await context.request.post(`${API_BASE}/${SESSION_PATHS.current}`, { data: {} });
    if (check.ok() && (await check.json()).data?.account === account) return;
    await context.clearCookies();
  }
  const res = await context.request.post(`${API_BASE}/${SESSION_PATHS.login}`, { data: { account, password } });
  const body = await res.text();
  if (!res.ok() || JSON.parse(body).code !== '10000000')
    throw new Error(`sign-in of ${account} refused: ${res.status()} ${body}`);
  if (password !== PASSWORD) return;
  await mkdir(AUTH_DIR, { recursive: true });
  // cookies only: a journey's local storage (menu fold, last landing page) is its own
  await writeFile(file, JSON.stringify({ cookies: (await context.storageState()).cookies, origins: [] }));
}

/** Logs in through the login page, as a person would. */
export async function loginThroughPage(page: Page, account: string, password = PASSWORD) {
  await page.goto('/esm/login');
  await page.getByPlaceholder('账号').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Starts with the side menu unfolded (it is folded by default) so entries can be read. */
export async function unfoldMenu(page: Page) {
  await page.addInitScript(() => localStorage.setItem('esm.menu.collapsed', 'false'));
}

/**
 * A toast with `text`: antd's message in the portal, or the login page's own (plain elements, no
 * antd on its first load), an alert like antd's.
 */
export async function expectToast(page: Page, text: string | RegExp) {
  const toasts = page.locator('.ant-message-notice, [data-testid="login-toast"][role="alert"]');
  // a CI run keeps only its log: a toast that never came says what the page showed instead
  await toasts
    .filter({ hasText: text })
    .waitFor({ state: 'visible', timeout: 20_000 })
    .catch(async (e: unknown) => {
      throw new Error(`No toast ${String(text)}. ${await pageState(page)}\n${String(e)}`);
    });
}

/**
 * What a page was left in, for a failure's message (a CI run keeps only its log): its address, the
 * toasts on it, how many drawers are open and the titles of its dialogs and drawers.
 */
export async function pageState(page: Page): Promise<string> {
  const texts = async (selector: string) => JSON.stringify([...new Set(await page.locator(selector).allInnerTexts())]);
  const drawers = await page.locator('.ant-drawer-open').count();
  return `Page ${page.url()}; toasts ${await texts('.ant-message-notice, [data-testid="login-toast"]')}; open drawers ${drawers}; titles ${await texts('.ant-modal-confirm-title, .ant-modal-title, .ant-drawer-title')}`;
}

/**
 * Waits until the portal shell and the page's data have loaded: the breadcrumb shows (session and
 * menu answered), then no spinner is left (the page's chunk arrived and its calls answered; the
 * tree and the table spin from their first render until their data is in).
 * Not `networkidle`: a document reaches it once, on the login page already, so after the
 * client-side navigation to the landing page it returned at once, and a test that changed the
 * session next raced the landing page's own calls (seen on a busy machine).
 */
export async function settled(page: Page) {
  await expect(page.getByTestId('breadcrumb')).toBeVisible();
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
}

/**
 * Counts the page's API calls from now on; answered() waits until none is in flight. A test that
 * logs out waits for that first, so it starts from a quiet page. (A call still in flight when the
 * logout answered used to set the old session cookie again — rolling sessions — and the next
 * check said 登录超时; the session store no longer re-sends a cookie it has not confirmed,
 * apps/api/test/oidc.test.ts "logout while other requests are in flight".)
 */
export function apiCalls(page: Page): { answered: () => Promise<void> } {
  let inFlight = 0;
  const isApi = (r: Request) => r.url().includes('/esm-server/api/');
  page.on('request', (r) => void (isApi(r) && inFlight++));
  const done = (r: Request) => void (isApi(r) && inFlight--);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return { answered: () => expect.poll(() => inFlight).toBe(0) };
}

/**
 * Picks an option of an antd select found by its label within `scope`, typing `search` first when
 * given, and waits until the select has closed. On a busy machine a dropdown could stay open after
 * the click (its appear motion still running) and cover the next field, so a select still expanded
 * 5 s after the pick is closed with Escape; and the pick is repeated until the select shows it.
 */
export async function pickOption(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
  label: string,
  option: string | RegExp,
  search?: string,
) {
  const box = scope.getByLabel(label, { exact: true });
  const select = box.locator(
    'xpath=ancestor::div[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]',
  );
  // A pick can be lost on a busy machine: the list moves when a search's answer arrives (the
  // dropdown grows, realigns) between Playwright's check of the option and its click, and the
  // click lands beside it. So the pick is done again until the select shows the option.
  await expect(async () => {
    if ((await box.getAttribute('aria-expanded')) !== 'true') await box.click();
    if (search) await box.fill(search);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: option })
      .first()
      .click({ timeout: 10_000 });
    await closeSelect(box, (await select.getAttribute('class'))?.includes('ant-select-multiple') ?? false);
    await expect(select).toContainText(option, { timeout: 2_000 });
  }).toPass();
}

/**
 * A single select closes by itself after the pick; wait for that first. Escape only for one that stayed open:
 * an Escape that arrives just after the select closed by itself goes on to the dialog and closes it.
 */
async function closeSelect(box: Locator, multiple: boolean) {
  // a multiple select stays open after a pick: close it at once
  const closedByItself =
    !multiple &&
    (await expect(box)
      .toHaveAttribute('aria-expanded', 'false', { timeout: 5_000 })
      .then(
        () => true,
        () => false,
      ));
  if (closedByItself) return;
  await expect(async () => {
    if ((await box.getAttribute('aria-expanded')) === 'true') await box.press('Escape');
    await expect(box).toHaveAttribute('aria-expanded', 'false', { timeout: 1_000 });
  }).toPass();
}

/**
 * Ticks 我已阅读并同意上述保密协议 in the agreement dialog `gate` and presses 同意并继续. On a busy
 * machine a click during the dialog's zoom-in could land before the checkbox was under the pointer
 * ("Clicking the checkbox did not change its state"), so the tick is retried until it shows. (The
 * journeys now run without motion, playwright.config.ts; the retry stays for one that turns it on.)
 */
export async function agreeAndContinue(gate: Locator) {
  const box = gate.getByRole('checkbox', { name: '我已阅读并同意上述保密协议' });
  await expect(async () => {
    if (!(await box.isChecked())) await box.click();
    await expect(box).toBeChecked({ timeout: 1_000 });
  }).toPass();
  await gate.getByRole('button', { name: '同意并继续' }).click();
}
