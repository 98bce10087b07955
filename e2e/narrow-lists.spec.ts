/**
 * The narrow form (listColumns.tsx) where lists did not have it yet, its sort, and one-message
 * "not found" in the drawers and dialogs over a list. Screenshots at 390, 600 and 1366 px go to
 * e2e/screenshots/ for a person to look at.
 */
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { agreeAndContinue, settled, signIn, atPage, apiUrl } from './helpers.ts';
import { PAGES, documentIssuesApi, empowerApi, type EndpointDef } from '../packages/contracts/src/index.ts';

const WIDTHS = [390, 600, 1366] as const;

const tableSettled = async (page: Page) => {
  await expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
  await expect(page.locator('.ant-table-wrapper .ant-spin-blur')).toHaveCount(0);
};

/** Nothing on the page is wider than the window: no sideways scrolling, neither of the page nor of a table. */
async function expectNoSidewaysScroll(page: Page) {
  const over = await page.evaluate(() => {
    const doc = document.documentElement;
    const tables = [...document.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body')]
      .filter((t) => t.scrollWidth > t.clientWidth + 1)
      .map((t) => `${t.scrollWidth}>${t.clientWidth}`);
    return { page: doc.scrollWidth > doc.clientWidth + 1 ? `${doc.scrollWidth}>${doc.clientWidth}` : '', tables };
  });
  expect(over).toEqual({ page: '', tables: [] });
}

/** The page at each width (narrow form below 769 px), checked by `check`, then photographed. */
async function atEachWidth(page: Page, name: string, check: (width: number) => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await check(width);
    await page.screenshot({ path: `e2e/screenshots/narrow-${name}-${width}.png`, fullPage: true });
  }
}

test("授权访问报告 and a notice's changes have the narrow form on a phone", async ({ page }) => {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  // a material a supplier holds a valid grant on today (the seed's)
  const [held] = await sql<{ material_code: string }>(
    `SELECT material_code FROM empower_grant WHERE revoked_at IS NULL AND valid_from <= now() AND valid_until > now() ORDER BY id LIMIT 1`,
  );
  await page.goto(`${PAGES.drawingAccessReport.path}?materialCode=${held!.material_code}`);
  const grants = page.getByTestId('report-grants');
  await expect(grants.locator('.ant-table-row').first()).toBeVisible();
  await atEachWidth(page, 'access-report', async (width) => {
    await settled(page);
    if (width < 769) {
      // who and which grant, how long; the rest folds out under the row
      await expect(grants.locator('td.esm-col-identity').first()).toContainText('S00');
      await expect(grants.locator('td.esm-col-state').first()).toContainText('至');
      await expect(grants.locator('th', { hasText: '审批人' })).toHaveCount(0);
      await grants.locator('.ant-table-row-expand-icon').first().click();
      await expect(grants.locator('.ant-table-expanded-row').first()).toContainText('审批人');
      await grants.locator('.ant-table-row-expand-icon').first().click();
      await expect(page.getByTestId('report-events').locator('td.esm-col-identity').first()).toBeVisible();
    } else {
      await expect(grants.locator('th', { hasText: '审批人' })).toBeVisible();
      await expect(grants.locator('td.esm-col-identity')).toHaveCount(0);
    }
    await expectNoSidewaysScroll(page);
  });

  const [notice] = await sql<{ id: number }>(
    `SELECT n.id FROM change_notice n WHERE n.status = 'PUBLISHED' AND EXISTS (SELECT 1 FROM notice_change c WHERE c.notice_id = n.id) ORDER BY n.id LIMIT 1`,
  );
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto(`${PAGES.noticeOfChangeOfDrawingsHR.path}?id=${notice!.id}`);
  const changes = page.locator('.ant-card').filter({ hasText: '变更内容' }).locator('.ant-table-wrapper');
  await expect(changes.locator('.ant-table-row').first()).toBeVisible();
  await atEachWidth(page, 'notice-changes', async (width) => {
    await settled(page);
    if (width < 769) {
      await expect(changes.locator('td.esm-col-identity').first()).toBeVisible();
      await expect(changes.locator('td.esm-col-state').first()).toContainText('→');
      await expect(
        changes
          .locator('td.esm-col-actions')
          .first()
          .getByRole('button', { name: /查看新版本/ }),
      ).toBeVisible();
      await expect(changes.locator('th', { hasText: '新版本生效日期' })).toHaveCount(0);
    } else {
      await expect(changes.locator('th', { hasText: '新版本生效日期' })).toBeVisible();
    }
    await expectNoSidewaysScroll(page);
  });
});

test("a supplier's archive on a phone: no sideways scroll, and the sort of the wide table as a select", async ({
  page,
}) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  // confirmed from the phone: the confirmation time under 已确认 is what used to push the table out
  await page.setViewportSize({ width: 390, height: 800 });
  await tableSettled(page);
  // a row still to confirm (other journeys on this database may have confirmed the first ones)
  const toConfirm = page
    .locator('.ant-table-row')
    .filter({ has: page.getByRole('button', { name: '确认', exact: true }) })
    .first();
  const first = page.locator(`.ant-table-row[data-row-key="${await toConfirm.getAttribute('data-row-key')}"]`);
  await first.getByRole('button', { name: '确认', exact: true }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s*认/ })
    .click();
  // the confidentiality agreement first, if demo2 has not signed it yet
  const gate = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('checkbox', { name: '我已阅读并同意上述保密协议' }) });
  const confirmed = first.locator('td.esm-col-state').filter({ hasText: '已确认' });
  await expect(gate.or(confirmed)).toBeVisible();
  if (await gate.isVisible()) await agreeAndContinue(gate);
  await expect(confirmed).toBeVisible();
  await atEachWidth(page, 'archive', async (width) => {
    await tableSettled(page);
    const select = page.getByRole('combobox', { name: '排序' });
    if (width < 769) {
      await expect(page.locator('td.esm-col-state').filter({ hasText: '已确认' }).first()).toBeVisible();
      await expect(select).toBeVisible();
      await expectNoSidewaysScroll(page);
    } else {
      // wide: the column headers sort, no select
      await expect(select).toHaveCount(0);
    }
  });

  await page.setViewportSize({ width: 390, height: 800 });
  await tableSettled(page);
  const codes = () =>
    page
      .locator('td.esm-col-identity')
      .evaluateAll((cells) => cells.map((c) => c.querySelector('.ant-typography')?.textContent ?? ''));
  const asked = page.waitForRequest(
    (r) =>
      r.url().includes('getStandardFilePager') &&
      r.postDataJSON()?.sortField === 'standardCode' &&
      r.postDataJSON()?.sortOrder === 'descend',
  );
  await page.getByRole('combobox', { name: '排序' }).click();
  await page.locator('.ant-select-dropdown').getByText('标准编号 降序', { exact: true }).click();
  await asked;
  await tableSettled(page);
  const shown = await codes();
  expect(shown.length).toBeGreaterThan(1);
  expect(shown).toEqual([...shown].sort().reverse());
  await page.screenshot({ path: 'e2e/screenshots/narrow-archive-sorted-390.png', fullPage: true });
  // cleared: the server's own order again
  const cleared = page.waitForRequest(
    (r) => r.url().includes('getStandardFilePager') && r.postDataJSON()?.sortField === undefined,
  );
  await page.locator('.esm-narrow-sort .ant-select-clear').click();
  await cleared;
});

/** No toast about the failure: the drawer or dialog says it once. */
const expectNoToast = (page: Page) =>
  expect(page.locator('.ant-message-notice, .ant-notification-notice')).toHaveCount(0);

/** Sends the detail call of `path` for a record that does not exist: the real server answers it. */
async function askForAMissingOne(page: Page, endpoint: EndpointDef) {
  await page.route(`**${apiUrl(endpoint)}`, (route) =>
    route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), id: 987654 }) }),
  );
}

test('a detail that does not exist (or is not yours) says so once, with 返回列表', async ({ page }) => {
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));

  // the countersign drawer, opened by its address
  await page.goto(`${PAGES.supplierCountersignList.path}?id=987654`);
  const drawer = page.getByRole('dialog', { name: '会签单' });
  await expect(drawer.getByText('会签单不存在或无权查看')).toBeVisible();
  await expect(drawer.getByRole('button', { name: '重试' })).toHaveCount(0);
  await expect(drawer).not.toContainText('状态码');
  await expectNoToast(page);
  await atEachWidth(page, '404-countersign', async () => {
    await expect(drawer.getByText('会签单不存在或无权查看')).toBeVisible();
  });
  await drawer.getByRole('button', { name: '返回列表' }).click();
  await expect(page).toHaveURL(atPage(PAGES.supplierCountersignList));
  await expect(drawer).toBeHidden();

  // the application's 审批记录
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto(PAGES.supplierDrawingEmpowerApply.path);
  await tableSettled(page);
  await askForAMissingOne(page, empowerApi.supplierAudit);
  await page.locator('.ant-table-row').first().getByRole('button', { name: '记录', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('申请不存在或无权查看')).toBeVisible();
  await expect(dialog.getByRole('button', { name: '重试' })).toHaveCount(0);
  await expectNoToast(page);
  await atEachWidth(page, '404-audit', async () => {
    await expect(dialog.getByText('申请不存在或无权查看')).toBeVisible();
  });
  await dialog.getByRole('button', { name: '返回列表' }).click();
  await expect(dialog).toBeHidden();

  // a question's detail
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto(PAGES.documentIssue.path);
  await tableSettled(page);
  await askForAMissingOne(page, documentIssuesApi.supplierFind);
  await page.locator('.ant-table-row').first().getByRole('button', { name: '查看' }).click();
  const thread = page.getByRole('dialog', { name: '问题详情' });
  await expect(thread.getByText('问题不存在或无权查看')).toBeVisible();
  await expect(thread.getByRole('button', { name: '重试' })).toHaveCount(0);
  await expectNoToast(page);
  await atEachWidth(page, '404-question', async () => {
    await expect(thread.getByText('问题不存在或无权查看')).toBeVisible();
  });
  await thread.getByRole('button', { name: '返回列表' }).click();
  await expect(thread).toBeHidden();
});
