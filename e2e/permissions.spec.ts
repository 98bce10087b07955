/**
 * Button and column permissions in the browser: demo7 takes 导出Excel of the archive page away from type 3 on 按钮与列权限
 * → demo3 no longer sees the button and the server refuses the call (and the change is in the change
 * log); demo3 reveals a supplier contact's mobile number with the eye icon and finds the reveal in
 * 手机号查看日志; demo2 sees its own contacts masked. The rule is given back at the end (through the
 * API, so the server's cache drops it at once) for the journeys that run after this one.
 * Columns too: demo7 hides 发布人 of the change-notice list for type 3 → demo3's list loses the column
 * and the server's rows lose the field; and hides 操作记录·IP地址 (a path into the notice's audit
 * trail, `events.ip`) → demo3's notice shows its trail without the addresses.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { PASSWORD, settled, signIn, apiUrl, atPage } from './helpers.ts';
import {
  PAGES,
  exportApi,
  noticesApi,
  permissionsApi,
  phoneLogApi,
  sessionApi,
} from '../packages/contracts/src/index.ts';

const ARCHIVE_EXPORT = `kind = 'BUTTON' AND page = '${PAGES.dashboard.path}' AND code = 'export'`;
const NOTICE_PUBLISHER = `kind = 'COLUMN' AND page = '${PAGES.changeNoticeList.path}' AND code = 'publishedByName'`;
const NOTICE_EVENT_IP = `kind = 'COLUMN' AND page = '${PAGES.changeNoticeList.path}' AND code = 'events.ip'`;

async function apiLogin(request: APIRequestContext, account: string) {
  const res = await request.post(apiUrl(sessionApi.login), { data: { account, password: PASSWORD } });
  expect(res.ok()).toBe(true);
}

test.afterAll(async ({ playwright }) => {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  await apiLogin(request, 'demo7');
  const [row] = await sql<{ id: number; version: number; allowed_types: number[] }>(
    `SELECT id, version, allowed_types FROM permission_item WHERE ${ARCHIVE_EXPORT}`,
  );
  if (row && !row.allowed_types.includes(3)) {
    const res = await request.post(apiUrl(permissionsApi.update), {
      data: { id: row.id, version: row.version, label: '导出Excel', allowedTypes: [3, 7, 8, 9] },
    });
    expect(res.ok()).toBe(true);
  }
  for (const where of [NOTICE_PUBLISHER, NOTICE_EVENT_IP]) {
    const [col] = await sql<{ id: number; version: number; label: string; allowed_types: number[] }>(
      `SELECT id, version, label, allowed_types FROM permission_item WHERE ${where}`,
    );
    if (col && !col.allowed_types.includes(3)) {
      const res = await request.post(apiUrl(permissionsApi.update), {
        data: {
          id: col.id,
          version: col.version,
          label: col.label,
          allowedTypes: [2, 3, 4, 5, 6, 7, 8, 9],
          maskedTypes: [],
        },
      });
      expect(res.ok()).toBe(true);
    }
  }
  await request.dispose();
});

/** An option of the select whose list is open (a closed one keeps its options in the page). */
const openOption = (page: Page, text: string | RegExp) =>
  page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: text });

/** The archive page's table has its rows (and so its toolbar has been decided). */
async function archivePage(page: Page) {
  await page.goto(PAGES.dashboard.path);
  await settled(page);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
}

test('demo7 hides 导出Excel for type 3: demo3 no longer sees it and the call is refused', async ({ page, browser }) => {
  // before: demo3 has the button
  const demo3 = await browser.newPage();
  await signIn(demo3, 'demo3');
  await expect(demo3).toHaveURL(atPage(PAGES.dashboard));
  await archivePage(demo3);
  await expect(demo3.getByRole('button', { name: '导出Excel' })).toBeVisible();

  await signIn(page, 'demo7');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.permission.path);
  await settled(page);
  await page.getByRole('combobox', { name: '页面' }).click();
  await openOption(page, `${PAGES.dashboard.path}）`).first().click();
  await page.getByRole('combobox', { name: '类型' }).click();
  // exactly 按钮: the page picker also offers 按钮与列权限
  await openOption(page, /^按钮$/).click();
  const row = page.locator('.ant-table-row').filter({ hasText: '导出Excel' });
  await expect(row).toHaveCount(1);
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/permission-matrix.png' });
  const cell = row.getByRole('checkbox', { name: '导出Excel · 3 图纸管理员' });
  await expect(cell).toBeChecked();
  const saved = page.waitForResponse((r) => r.url().endsWith(apiUrl(permissionsApi.update)));
  await cell.click();
  expect((await saved).status()).toBe(200);
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已保存：导出Excel' })).toBeVisible();
  await expect(cell).not.toBeChecked();

  // the change log shows it, before → after
  await page.getByRole('tab', { name: '变更记录' }).click();
  const change = page.locator('.ant-table-row').filter({ hasText: '导出Excel' }).first();
  await expect(change).toContainText('杨磊');
  await expect(change).toContainText('3、7、8、9');
  await expect(change).toContainText('7、8、9');
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/permission-changes.png' });

  // demo3, on a fresh load: no button, and the call itself is refused
  await archivePage(demo3);
  await expect(demo3.getByRole('button', { name: '上传文件' })).toBeVisible();
  await expect(demo3.getByRole('button', { name: '导出Excel' })).toHaveCount(0);
  const refused = await demo3.request.post(apiUrl(exportApi.drawingExcel), {
    data: {},
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).message).toContain('导出Excel');
  await demo3.close();
});

test('demo3 reveals a supplier contact’s number with the eye icon and finds the reveal in the log', async ({
  page,
}) => {
  const [{ standard_code }] = await sql<{ standard_code: string }>(
    `SELECT sf.standard_code FROM standard_file sf JOIN supplier_material sm ON sm.material_code = sf.material_code
     WHERE sm.supplier_code = 'S001' AND sf.status = 'EFFECTIVE' ORDER BY sf.id LIMIT 1`,
  );
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(`${PAGES.dashboard.path}?standardCode=${encodeURIComponent(standard_code)}`);
  await settled(page);
  await page.locator('.ant-table-row').first().getByRole('button', { name: '可见供应商' }).click();
  const suppliers = page.locator('.ant-drawer').filter({ hasText: '可见供应商' });
  await suppliers.locator('.ant-table-row').filter({ hasText: 'S001' }).getByRole('button', { name: '联系人' }).click();
  const contacts = page.locator('.ant-drawer').filter({ hasText: '联系人 · 青岛海达精密机械有限公司' });
  const liu = contacts.locator('.ant-table-row').filter({ hasText: '刘海涛' });
  await expect(liu).toContainText('139****5601');
  await expect(contacts).not.toContainText('13912345601');
  await page.screenshot({ path: 'e2e/screenshots/contacts-masked.png' });

  const revealed = page.waitForResponse((r) => r.url().endsWith(apiUrl(phoneLogApi.reveal)));
  await liu.getByRole('button', { name: '查看刘海涛的完整手机号' }).click();
  expect((await revealed).status()).toBe(200);
  await expect(liu.getByTestId('mobile')).toHaveText('13912345601');
  await page.screenshot({ path: 'e2e/screenshots/contacts-revealed.png' });
  const [{ n }] = await sql<{ n: string }>(
    `SELECT count(*) AS n FROM phone_view_log WHERE viewer_account = 'demo3' AND contact_name = '刘海涛'`,
  );
  expect(Number(n)).toBe(1);

  await page.goto(PAGES.mobilePhoneLog.path);
  await settled(page);
  await page.getByRole('textbox', { name: '查看人', exact: true }).fill('demo3');
  await page.getByRole('textbox', { name: '查看人', exact: true }).press('Enter');
  const logRow = page.locator('.ant-table-row').filter({ hasText: '刘海涛' });
  await expect(logRow).toHaveCount(1);
  await expect(logRow).toContainText('李娜');
  await expect(logRow).toContainText('139****5601');
  await expect(logRow).toContainText('青岛海达精密机械有限公司');
  await expect(logRow).toContainText('档案信息');
  await expect(page.getByRole('button', { name: '导出Excel' })).toBeVisible();
  await page.getByRole('textbox', { name: '查看人', exact: true }).fill('');
  await page.getByRole('textbox', { name: '查看人', exact: true }).press('Enter');
  await expect(page.locator('.ant-table-row')).not.toHaveCount(1);
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/phone-log.png' });
  await page.setViewportSize({ width: 600, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/phone-log-narrow.png', fullPage: true });
});

test('demo2 sees its own contacts and its purchasers masked, and reveals one', async ({ page }) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await settled(page);
  await page.getByRole('button', { name: '联系人' }).click();
  const drawer = page.locator('.ant-drawer').filter({ hasText: '手机号已脱敏' });
  await expect(drawer.locator('.ant-table-row')).toHaveCount(7);
  await expect(drawer).not.toContainText('李明'); // S002's contact
  const zhou = drawer.locator('.ant-table-row').filter({ hasText: '周俊' });
  await expect(zhou).toContainText('136****5621');
  const revealed = page.waitForResponse((r) => r.url().endsWith(apiUrl(phoneLogApi.supplierReveal)));
  await zhou.getByRole('button', { name: '查看周俊的完整手机号' }).click();
  expect((await revealed).status()).toBe(200);
  await expect(zhou.getByTestId('mobile')).toHaveText('13612345621');
  await page.setViewportSize({ width: 600, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/supplier-contacts-narrow.png' });
});

/** The change-notice list with its rows (and so its governed columns decided). */
async function noticeList(page: Page) {
  const rows = page.waitForResponse((r) => r.url().endsWith(apiUrl(noticesApi.page)));
  await page.goto(PAGES.changeNoticeList.path);
  const res = await rows;
  await settled(page);
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  return (await res.json()).data as Record<string, unknown>[];
}

/**
 * demo7, on 按钮与列权限: the column labelled `label` hidden for type 3, saved; answers its row.
 * `pageTitle`: when the label is on several pages, that page is picked first in the 页面 filter
 * (grouped under the menu's headings, found by typing).
 */
async function hideColumnForType3(page: Page, label: string, pageTitle?: string) {
  await signIn(page, 'demo7');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.permission.path);
  await settled(page);
  if (pageTitle) {
    await page.getByRole('combobox', { name: '页面' }).first().click();
    await page.getByRole('combobox', { name: '页面' }).first().fill(pageTitle);
    const option = openOption(page, pageTitle);
    await expect(option).toHaveCount(1);
    await expect(option).toBeVisible();
    await expect(page.locator('.ant-select-dropdown-placement-bottomLeft.ant-slide-up-enter')).toHaveCount(0); // opened
    await page.screenshot({ path: 'e2e/screenshots/permission-page-picker.png' });
    await option.click();
    await settled(page);
  }
  await page.getByRole('combobox', { name: '类型' }).click();
  await openOption(page, /^列$/).click();
  // the keyword finds the column among the page's (or all pages') rows
  await page.getByRole('textbox', { name: '关键字' }).fill(label);
  await page.getByRole('textbox', { name: '关键字' }).press('Enter');
  const row = page.locator('.ant-table-row').filter({ hasText: label });
  await expect(row).toHaveCount(1);
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  const saved = page.waitForResponse((r) => r.url().endsWith(apiUrl(permissionsApi.update)));
  await row.getByRole('combobox', { name: `${label} · 3 图纸管理员` }).click();
  await openOption(page, '隐藏').click();
  expect((await saved).status()).toBe(200);
  await expect(page.locator('.ant-message-notice').filter({ hasText: `已保存：${label}` })).toBeVisible();
  return row;
}

test('demo7 hides 发布人 of the change-notice list for type 3: demo3 no longer sees the column', async ({
  page,
  browser,
}) => {
  const demo3 = await browser.newPage();
  await signIn(demo3, 'demo3');
  await expect(demo3).toHaveURL(atPage(PAGES.dashboard));
  const before = await noticeList(demo3);
  expect(before.some((r) => typeof r.publishedByName === 'string')).toBe(true);
  const header = demo3.locator('.ant-table-thead th').filter({ hasText: /^发布人$/ });
  await expect(header).toHaveCount(1);
  await expect(demo3.locator('.ant-spin-spinning')).toHaveCount(0);
  await demo3.screenshot({ path: 'e2e/screenshots/notice-list-publisher.png' });

  const row = await hideColumnForType3(page, '发布人');
  await expect(
    row.locator('.ant-select').filter({ has: page.getByRole('combobox', { name: '发布人 · 3 图纸管理员' }) }),
  ).toContainText('隐藏');
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/permission-columns.png' });
  await page.setViewportSize({ width: 600, height: 800 });
  await expect(row).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/permission-columns-narrow.png', fullPage: true });

  // demo3, on a fresh load: the column is gone and the rows no longer carry the field
  const after = await noticeList(demo3);
  for (const r of after) expect(r).not.toHaveProperty('publishedByName');
  await expect(demo3.locator('.ant-table-thead th').filter({ hasText: '发布时间' })).toHaveCount(1);
  await expect(header).toHaveCount(0);
  await demo3.close();
});

test("demo7 hides 操作记录·IP地址 of the notices for type 3: demo3 sees a notice's trail without addresses", async ({
  page,
  browser,
}) => {
  const [n] = await sql<{ notice_id: number }>(
    `SELECT notice_id FROM notice_event WHERE ip IS NOT NULL ORDER BY id LIMIT 1`,
  );
  expect(n).toBeDefined();
  const demo3 = await browser.newPage();
  await signIn(demo3, 'demo3');
  await expect(demo3).toHaveURL(atPage(PAGES.dashboard));
  const trail = async () => {
    const answer = demo3.waitForResponse((r) => r.url().endsWith(apiUrl(noticesApi.detail)));
    await demo3.goto(`${PAGES.noticeOfChangeOfDrawingsHR.path}?id=${n!.notice_id}`);
    const events = (await (await answer).json()).data.events as Record<string, unknown>[];
    await settled(demo3);
    return events;
  };
  const entries = demo3.locator('.ant-timeline-item');
  const before = await trail();
  expect(before.some((e) => typeof e.ip === 'string')).toBe(true);
  await expect(entries.filter({ hasText: 'IP ' }).first()).toBeVisible();

  // the same column is declared on the countersign page too: this one is the notices'
  await hideColumnForType3(page, '操作记录·IP地址', '变更通知列表');

  // demo3, on a fresh load: the trail is there, its entries without an address
  const after = await trail();
  expect(after.length).toBe(before.length);
  for (const e of after) expect(e).not.toHaveProperty('ip');
  await expect(entries.first()).toBeVisible();
  await expect(entries.filter({ hasText: 'IP ' })).toHaveCount(0);
  await demo3.screenshot({ path: 'e2e/screenshots/notice-trail-without-ip.png', fullPage: true });
  await demo3.setViewportSize({ width: 600, height: 800 });
  await expect(entries.first()).toBeVisible();
  await demo3.screenshot({ path: 'e2e/screenshots/notice-trail-without-ip-narrow.png', fullPage: true });
  await demo3.close();
});
