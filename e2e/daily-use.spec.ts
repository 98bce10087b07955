/**
 * What daily users tripped over, one journey per finding, each clicked through as the
 * user would at 1366 × 800 (or 600 px where the finding is about narrow screens).
 */
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { settled, signIn, signOut, unfoldMenu, atPage, apiUrl } from './helpers.ts';
import { PAGES, visitsApi, LOGIN_PATH } from '../packages/contracts/src/index.ts';

const rows = (page: Page) => page.locator('.ant-table-row');
const tableSettled = async (page: Page) => {
  await expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-table-wrapper .ant-spin-blur')).toHaveCount(0);
};

test('1. logout drops ?redirect: the next user lands on their own page, and a foreign redirect is ignored', async ({
  page,
}) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.archivalHistory.path);
  await settled(page);
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/esm\/login$/);
  await signIn(page, 'demo4');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await expect(page.getByText('没有权限')).toHaveCount(0);

  // a redirect left by someone else in the address bar: not one of demo2's pages
  await signOut(page);
  await page.goto(`${LOGIN_PATH}?redirect=${encodeURIComponent(PAGES.archivalHistory.path)}`);
  await page.getByPlaceholder('账号').fill('demo2');
  await page.getByPlaceholder('密码').fill('Esm@2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
});

test('2. obsoleting the effective version states the decision and restores the previous version', async ({ page }) => {
  const [c] = await sql<{ id: number; version: string }>(
    `SELECT id, version FROM standard_file WHERE standard_code = 'HR-KT-D202' AND status = 'EFFECTIVE'`,
  );
  const [b] = await sql<{ id: number; version: string }>(
    `SELECT id, version FROM standard_file WHERE standard_code = 'HR-KT-D202' AND status = 'HISTORY' ORDER BY version_no DESC LIMIT 1`,
  );
  try {
    await signIn(page, 'demo3');
    await expect(page).toHaveURL(atPage(PAGES.dashboard));
    const bar = page.getByTestId('file-filters');
    await bar.getByRole('textbox', { name: '标准编号' }).fill('HR-KT-D202');
    await bar.getByRole('button', { name: /搜\s*索/ }).click();
    await tableSettled(page);
    await rows(page).filter({ hasText: '生效' }).getByRole('button', { name: '作废' }).click();
    const dialog = page.getByRole('dialog', { name: '确认作废该版本？' });
    const restore = dialog.getByRole('radio', { name: `作废此版本并恢复上一版本（${b!.version}）为生效` });
    await expect(restore).toBeChecked();
    await expect(dialog.getByText('整个标准作废')).toBeVisible();
    await expect(dialog.getByText(`供应商将看到并可确认 ${b!.version} 版`)).toBeVisible();
    const reason = dialog.getByLabel('作废原因');
    // the dialog settles (its versions arrive) before the reason is typed and kept
    await expect(async () => {
      await reason.fill('e2e：结构回退到上一版');
      await expect(reason).toHaveValue('e2e：结构回退到上一版', { timeout: 1_000 });
    }).toPass();
    await dialog.getByRole('button', { name: '确认作废' }).click();
    await expect(page.locator('.ant-message-notice').filter({ hasText: `${b!.version} 版已恢复为生效` })).toBeVisible();
    const after = await sql<{ version: string; status: string }>(
      `SELECT version, status FROM standard_file WHERE id IN ($1, $2) ORDER BY version_no`,
      [b!.id, c!.id],
    );
    expect(after).toEqual([
      { version: b!.version, status: 'EFFECTIVE' },
      { version: c!.version, status: 'OBSOLETE' },
    ]);
    const events = await sql<{ action: string }>(
      `SELECT action FROM archive_event WHERE standard_code = 'HR-KT-D202' ORDER BY id`,
    );
    expect(events.map((e) => e.action)).toEqual(['OBSOLETE_VERSION', 'RESTORE_VERSION']);
  } finally {
    // later journeys expect the demo archive as seeded
    await sql(
      `UPDATE standard_file SET status = 'EFFECTIVE', obsoleted_at = NULL, obsolete_reason = NULL WHERE id = $1`,
      [c!.id],
    );
    await sql(`UPDATE standard_file SET status = 'HISTORY' WHERE id = $1`, [b!.id]);
    await sql(`DELETE FROM archive_event WHERE standard_code = 'HR-KT-D202'`);
  }
});

test('3. the supplier history shows a version the user confirmed as 已确认', async ({ page }) => {
  const [b] = await sql<{ id: number }>(
    `SELECT id FROM standard_file WHERE standard_code = 'HR-KT-D202' AND status = 'HISTORY' ORDER BY version_no DESC LIMIT 1`,
  );
  await sql(
    `INSERT INTO access_log (action, outcome, user_id, user_account, user_name, user_type, supplier_code, supplier_name, file_id, standard_code, file_name, version, material_code, material_name, ip)
     SELECT 'CONFIRM', 'OK', u.id, u.account, u.nick, u.type, u.supplier_code, '宁波东方电子科技有限公司', f.id, f.standard_code, f.file_name, f.version, f.material_code, '', '127.0.0.1'
     FROM app_user u, standard_file f WHERE u.account = 'demo4' AND f.id = $1`,
    [b!.id],
  );
  await signIn(page, 'demo4');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(PAGES.dashboardSHistory.path);
  await page.getByRole('textbox', { name: '标准编号' }).fill('HR-KT-D202');
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  const row = rows(page)
    .filter({ has: page.locator(`[data-row-key="${b!.id}"]`) })
    .or(page.locator(`.ant-table-row[data-row-key="${b!.id}"]`));
  await expect(row.first()).toContainText('已确认');
});

test('4. the tree page is reached from 企业标准档案, by the button and by a material', async ({ page }) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.getByRole('button', { name: '按物料浏览' }).click();
  await expect(page).toHaveURL(atPage(PAGES.drawingsAndArchivesInformationG));
  await expect(page.getByRole('button', { name: /返回上一级/ })).toBeVisible();
  await page.getByRole('button', { name: /返回上一级/ }).click();
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await tableSettled(page);
  const material = rows(page)
    .first()
    .getByRole('link', { name: /^\d{10}$/ });
  const code = (await material.textContent())!.trim();
  await material.click();
  await expect(page).toHaveURL(new RegExp(`drawingsAndArchivesInformationG\\?materialCode=${code}$`));
  await expect(rows(page).first()).toContainText(code);
});

test('5. at 1366 px the deciding columns are on screen without scrolling; the rest are in 列设置', async ({ page }) => {
  const onScreen = async (title: string) => {
    const box = await page.getByRole('columnheader', { name: title, exact: true }).first().boundingBox();
    expect(box, title).not.toBeNull();
    expect(box!.x + box!.width, `${title} ends within 1366 px`).toBeLessThanOrEqual(1366);
  };
  // nothing hides behind the fixed 操作 column: the table does not scroll sideways
  const noOverflow = async () =>
    expect(
      await page
        .locator('.ant-table-body, .ant-table-content')
        .first()
        .evaluate((e) => e.scrollWidth - e.clientWidth),
    ).toBeLessThanOrEqual(0);
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await tableSettled(page);
  for (const t of ['标准编号', '名称', '版本', '物料', '文件', '确认状态', '操作']) await onScreen(t);
  await noOverflow();
  await page.getByRole('button', { name: '列设置' }).click();
  await page.getByTestId('column-settings').getByRole('checkbox', { name: '保密等级' }).check();
  await expect(page.getByRole('columnheader', { name: '保密等级', exact: true })).toBeVisible();
  // beside the material tree too (图纸档案信息): 文件 waits in 列设置 there
  await page.goto(PAGES.drawingsAndArchivesInformationG.path);
  await tableSettled(page);
  for (const t of ['标准编号', '名称', '版本', '物料', '确认状态', '操作']) await onScreen(t);
  await noOverflow();

  // the logout's answer clears the session cookie: wait for it, or it clears demo3's as well
  await signOut(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await tableSettled(page);
  for (const t of ['标准编号', '名称', '版本', '状态', '物料', '操作']) await onScreen(t);
  await noOverflow();
});

test('6. the internal archive: its sort hint only on the sort icon; at 600 px its data in the narrow form, the tree in a drawer', async ({
  page,
}) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await expect(rows(page).first()).toBeVisible();
  // 点击升序 shows over a column's sort icon, not over its whole header: the pointer left where
  // 登录 was, or crossing the header row, no longer brings it up
  const tooltips = page.locator('.ant-tooltip:visible');
  const sortable = page.locator('.ant-table-thead th.ant-table-column-has-sorters').first();
  await sortable.locator('.ant-table-column-sorter').hover();
  await expect(tooltips).toHaveText('点击升序');
  await sortable.locator('.ant-table-column-title').hover();
  await expect(tooltips).toHaveCount(0);

  // a phone's width: identity, state and actions of each row, the rest in its expandable part
  await page.setViewportSize({ width: 600, height: 900 });
  await expect(page.getByRole('columnheader', { name: '状态', exact: true })).toBeVisible();
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator('.ant-tree')).toHaveCount(0);
  const table = await page.locator('.ant-table-wrapper').first().boundingBox();
  expect(table!.width).toBeGreaterThan(500);
  await page.getByRole('button', { name: /物料树/ }).click();
  const drawer = page.getByTestId('tree-drawer').or(page.locator('.ant-drawer-content'));
  await expect(drawer.locator('.ant-tree').first()).toBeVisible();
});

test('7. a session that ends says so on the login page; the login page logs no error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto('/esm/login');
  await expect(page.getByPlaceholder('账号')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);

  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  await sql(`DELETE FROM http_session WHERE user_id = (SELECT id FROM app_user WHERE account = 'demo3')`);
  // the next call gets 10000007: this search (a new filter, so it does go to the server), or a
  // background call that comes first — either way the user is sent to the login page, the state
  // waited for
  const bar = page.getByTestId('file-filters');
  await bar
    .getByRole('textbox', { name: '标准编号' })
    .fill('EXPIRED-CHECK', { timeout: 5_000 })
    .then(() => bar.getByRole('button', { name: /搜\s*索/ }).click({ timeout: 5_000 }))
    .catch(() => undefined);
  await expect(page).toHaveURL(/\/esm\/login\?redirect=.*reason=expired/);
  await expect(page.getByTestId('expired-notice')).toContainText('登录已过期，请重新登录');
});

test('8. a form that fails validation shows field messages and raises no page error', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await tableSettled(page);
  await page.getByRole('button', { name: '上传文件' }).click();
  const upload = page.getByRole('dialog', { name: '上传文件' });
  await upload.getByRole('button', { name: /上\s*传/ }).click();
  await expect(upload.getByText('请输入标准编号')).toBeVisible();
  await upload.getByRole('button', { name: /取\s*消/ }).click();
  await rows(page).filter({ hasText: '生效' }).first().getByRole('button', { name: '作废' }).click();
  const obsolete = page.getByRole('dialog', { name: '确认作废该版本？' });
  await obsolete.getByRole('button', { name: '确认作废' }).click();
  await expect(obsolete.getByText('请填写作废原因')).toBeVisible();
  expect(pageErrors).toEqual([]);
});

test('9. the menu opens the current page’s group; icons speak Chinese; no stray separator at 600 px', async ({
  page,
}) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.visitLog.path);
  await settled(page);
  await expect(page.getByTestId('side-menu').getByText('访问日志', { exact: true })).toBeVisible();
  // what a screen reader would read: no English icon names in the header or the menu
  const labels = await page
    .locator(
      'header [aria-label]:not([aria-hidden="true"]), [data-testid="side-menu"] [aria-label]:not([aria-hidden="true"])',
    )
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  expect(labels.filter((l) => /^[a-z][a-z-]*$/.test(l))).toEqual([]);

  await page.setViewportSize({ width: 600, height: 900 });
  await page.getByRole('button', { name: '打开菜单' }).click();
  await expect(page.locator('.ant-drawer').getByText('访问日志', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('footer').locator('.ant-space-item-split')).toHaveCount(0);
});

test('10. a fresh demo already has history in every log page', async ({ page }) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  for (const path of [
    'drawingViewLog',
    'drawingConfirmationLog',
    'blueprintDownloadingLog',
    'drawingPrintlog',
    'confidentialityAgreement',
  ]) {
    await page.goto(`/esm/drawingManagement/${path}`);
    await tableSettled(page);
    await expect(rows(page).first(), path).toBeVisible();
    const total = Number((await page.getByText(/共 \d+\+? 条/).textContent())!.match(/\d+/)![0]);
    expect(total, path).toBeGreaterThan(3);
  }
});

test('11. 搜索 or 重置 with the filters as they were asks the server again: what happened meanwhile shows', async ({
  page,
}) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  // this page's own visit: recorded as the layout renders, which may be after the list was read
  const visited = page.waitForResponse(
    (r) => r.url().endsWith(apiUrl(visitsApi.visit)) && (r.request().postData() ?? '').includes(PAGES.visitLog.path),
  );
  await page.goto(PAGES.visitLog.path);
  await visited;
  await tableSettled(page);
  const total = async () => Number((await page.getByText(/共 \d+\+? 条/).textContent())!.match(/\d+/)![0]);
  const askAgain = async (button: RegExp) => {
    const asked = page.waitForResponse((r) => r.url().endsWith(apiUrl(visitsApi.page)));
    await page.getByRole('button', { name: button }).click();
    await asked;
    await tableSettled(page);
  };
  await askAgain(/搜\s*索/); // the list with the page's own visit in it
  const before = await total();
  // a visit recorded meanwhile (another user, another window)
  await sql(`INSERT INTO visit_event (user_id, user_type, user_code, user_name, menu_name, path, ip)
    SELECT id, type, account, name, '图纸授权审批', '${PAGES.drawingEmpowerApprove.path}', '10.11.12.13' FROM app_user WHERE account = 'demo6'`);
  for (const button of [/搜\s*索/, /重\s*置/]) await askAgain(button);
  await expect.poll(total).toBe(before + 1);
});

test('12. a list with a filter that matches nothing says so, not that there is nothing at all', async ({ page }) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(PAGES.supplierDrawingEmpowerApply.path);
  await tableSettled(page);
  await expect(rows(page).first()).toBeVisible();
  const box = page.getByTestId('apply-filters').getByRole('textbox', { name: '物料编码' });
  await box.fill('zzqx9');
  await box.press('Enter');
  await expect(page.locator('.ant-table-placeholder')).toContainText('没有匹配的结果');
  await expect(page.locator('.ant-table-placeholder')).not.toContainText('新建申请');
});
