/**
 * Drawing authorization, the whole journey: demo2 (S001) applies for 0034000202,
 * whose grant expired, and submits; demo6 approves it for a shorter period; demo2 views a drawing
 * of it; demo3 finds the grant in force, the census row (and exports it), and the access report
 * naming demo6 and demo2's view. What the pages must show is read from the database.
 */
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { agreeAndContinue, expectToast, signIn, signOut, unfoldMenu, apiUrl, atPage } from './helpers.ts';
import { PAGES, filesApi } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

const MATERIAL = '0034000202';
const DAY = 86_400_000;
/** A day in UTC+8, `n` days from today. */
const day = (n = 0) => new Date(Date.now() + 8 * 3600_000 + n * DAY).toISOString().slice(0, 10);
const APPROVED_UNTIL = day(89);

const tableSettled = (page: Page) => expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);

/** demo2 has accepted the agreement in force (earlier journeys may have published newer versions). */
async function demo2Accepted(): Promise<boolean> {
  const [a] = await sql<{ accepted: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM keepsecret_acceptance x JOIN app_user u ON u.id = x.user_id WHERE x.agreement_id = k.id AND u.account = 'demo2') AS accepted
     FROM keepsecret_agreement k ORDER BY k.version DESC LIMIT 1`,
  );
  return a!.accepted;
}

/** The confidentiality gate, when it is asked for: read, tick, accept. */
async function acceptGateIfAsked(page: Page, asked: boolean) {
  if (!asked) return;
  const gate = page.locator('.esm-keepsecret-gate');
  await expect(gate).toBeVisible();
  await agreeAndContinue(gate);
  await expectToast(page, '已签署保密协议');
}

async function pendingApplication(): Promise<number> {
  const [a] = await sql<{ id: number }>(
    `SELECT a.id FROM empower_application a JOIN empower_application_material am ON am.application_id = a.id
     WHERE a.supplier_code = 'S001' AND a.status = 'SUBMITTED' AND am.material_code = $1 ORDER BY a.id DESC LIMIT 1`,
    [MATERIAL],
  );
  expect(a, `a submitted application of S001 for ${MATERIAL}`).toBeTruthy();
  return a!.id;
}

test('demo2 applies for the drawings of 0034000202, whose grant expired, and submits', async ({ page }) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const [before] = await sql<{ state: string }>(
    `SELECT CASE WHEN EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = 'S001' AND g.material_code = $1 AND g.revoked_at IS NULL AND g.valid_until > now() AT TIME ZONE 'UTC') THEN 'open' ELSE 'closed' END AS state`,
    [MATERIAL],
  );
  expect(before!.state, 'the demo seed: S001 has no grant on 0034000202 that has not ended').toBe('closed');
  const askGate = !(await demo2Accepted());

  // reachable from the supplier menu: 供应商专区 → 图纸授权申请
  await unfoldMenu(page);
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  const menu = page.getByTestId('side-menu');
  await menu.getByText('供应商专区', { exact: true }).click();
  await menu.getByText('图纸授权申请', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.supplierDrawingEmpowerApply));
  // a grant expiring soon offers 续期
  await expect(page.getByTestId('expiring-grants')).toContainText('0064000103');
  // 续期 opens a new application for that material, prefilled from the day the grant ends
  await page.getByTestId('expiring-grants').getByRole('button', { name: '即将到期 · 续期' }).click();
  const renewal = page.getByRole('dialog', { name: '续期申请' });
  await expect(renewal.locator('.ant-table-row').filter({ hasText: '0064000103' }).getByRole('checkbox')).toBeChecked();
  await expect(renewal.getByLabel('申请理由')).toHaveValue(/0064000103.*申请续期/);
  await renewal.getByRole('button', { name: /^取\s*消$/ }).click();
  await expect(renewal).toBeHidden();

  await page.getByRole('button', { name: /新建申请/ }).click();
  const dialog = page.getByRole('dialog', { name: '新建授权申请' });
  const picker = dialog.getByTestId('material-picker');
  const row = picker.locator('.ant-table-row').filter({ hasText: MATERIAL });
  await expect(row).toContainText('授权已过期');
  // only what S001 supplies is offered (0011000303 has a grant but is not supplied)
  await expect(picker.locator('.ant-table-row').filter({ hasText: '0011000303' })).toHaveCount(0);
  // nothing picked, no reason: the form says so, and nothing is sent
  await dialog.getByRole('button', { name: '提交申请' }).click();
  await expect(dialog.getByText('请选择物料')).toBeVisible();
  await expect(dialog.getByText('请填写申请理由')).toBeVisible();
  expect(pageErrors, 'a refused form raises no uncaught rejection').toEqual([]);

  await row.getByRole('checkbox').check();
  await dialog.getByLabel('申请理由').fill('电机安装座改模，需查看毛坯图确认加工余量');
  await expect(dialog.getByTestId('apply-days')).toHaveText('共 365 天');
  await dialog.getByRole('button', { name: '提交申请' }).click();
  await acceptGateIfAsked(page, askGate);
  await expectToast(page, /申请 \d+ 已提交，等待审批/);
  await expect(dialog).toBeHidden();

  const id = await pendingApplication();
  const listed = page.locator('.ant-table-row').filter({ hasText: MATERIAL }).filter({ hasText: '已提交' });
  await expect(listed).toContainText(String(id));
  // its record: created, then submitted
  await listed.getByRole('button', { name: '记录' }).click();
  const trail = page.getByTestId('audit-trail');
  await expect(trail.locator('li')).toHaveCount(2);
  await expect(trail).toContainText('创建草稿');
  await expect(trail).toContainText('草稿 → 已提交');
  await page
    .locator('.ant-modal-footer')
    .getByRole('button', { name: /^关\s*闭$/ })
    .click(); // antd 6: the × is 关闭 too
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/empower-apply.png' });
});

test('demo6 approves it for a shorter period, on its landing page', async ({ page }) => {
  const id = await pendingApplication();
  await signIn(page, 'demo6');
  await expect(page).toHaveURL(atPage(PAGES.drawingEmpowerApprove));
  const row = page.locator('.ant-table-row').filter({ hasText: MATERIAL }).filter({ hasText: '已提交' });
  await expect(row).toContainText('S001');
  await row.getByRole('button', { name: '审批', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `审批申请 ${id}` });
  await expect(dialog).toContainText('电机安装座改模');
  await expect(dialog).toContainText(`${day(0)} 至 ${day(364)}（365 天）`);

  // shorten: until 90 days from today instead of a year
  const until = dialog.getByRole('textbox', { name: /批准截止日期/ }).or(dialog.locator('#empower-decide_validUntil'));
  await until.click();
  await until.fill(APPROVED_UNTIL);
  await until.press('Enter');
  await expect(dialog.getByText('期限已缩短')).toBeVisible();
  await dialog.getByRole('button', { name: /^批\s*准/ }).click();
  await expectToast(page, '已批准 1 个申请，生成 1 项授权');
  await expect(dialog).toBeHidden();
  // by its row key: the id as text also matches dates and counts in other rows
  const decided = page.locator(`.ant-table-row[data-row-key="${id}"]`);
  await expect(decided).toContainText(MATERIAL);
  await expect(decided).toContainText('已批准');
  await expect(decided).toContainText(`批准至 ${APPROVED_UNTIL}`);

  // the grant came with the approval: from today to the end of the shortened day
  const [grant] = await sql<{ approver_account: string; from_day: string; until_at: string }>(
    `SELECT approver_account, to_char(valid_from AT TIME ZONE 'UTC' AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS from_day,
            to_char(valid_until AT TIME ZONE 'UTC' AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD HH24:MI') AS until_at
     FROM empower_grant WHERE application_id = $1`,
    [id],
  );
  expect(grant).toEqual({ approver_account: 'demo6', from_day: day(0), until_at: `${day(90)} 00:00` });
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/empower-approve.png' });
});

test('demo2 views a drawing of 0034000202', async ({ page }) => {
  const [file] = await sql<{ standard_code: string }>(
    `SELECT standard_code FROM standard_file WHERE material_code = $1 AND status = 'EFFECTIVE' AND file_type = 'pdf' ORDER BY id LIMIT 1`,
    [MATERIAL],
  );
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.getByRole('textbox', { name: '标准编号' }).fill(file!.standard_code);
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  const row = page.locator('.ant-table-row').filter({ hasText: file!.standard_code });
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  const viewed = page.waitForResponse((r) => r.url().endsWith(apiUrl(filesApi.view)));
  await row.getByRole('button', { name: '查看' }).click();
  await acceptGateIfAsked(page, !(await demo2Accepted()));
  expect((await viewed).status()).toBe(200);
  await expect(page.getByTestId('pdf-pages').locator('canvas').first()).toBeVisible();
  await expect(page.locator('.esm-pdf-page').first().locator('.textLayer')).toContainText('demo2');
});

test('demo3 sees the grant in force, the census row and the report naming demo6', async ({ page }) => {
  const id = (
    await sql<{ id: number }>(
      `SELECT application_id AS id FROM empower_grant WHERE supplier_code = 'S001' AND material_code = $1 AND application_id IS NOT NULL ORDER BY id DESC LIMIT 1`,
      [MATERIAL],
    )
  )[0]!.id;
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));

  // 已授权图纸: the new grant, from the application, approved by 陈静 (demo6)
  await page.goto(PAGES.drawingAuthorizedFile.path);
  const filters = page.getByTestId('grant-filters');
  await filters.getByRole('textbox', { name: '物料编码' }).fill(MATERIAL);
  await filters.getByRole('button', { name: /搜\s*索/ }).click();
  const grantRow = page.locator('.ant-table-row').filter({ hasText: `申请 ${id}` });
  await expect(grantRow).toContainText('S001');
  await expect(grantRow).toContainText('有效');
  await expect(grantRow).toContainText('陈静');
  await expect(grantRow).toContainText(`${day(90)} 00:00`);

  // 供应商统计: S001's row counts by the grant rule
  const [expected] = await sql<{ supplied: string; valid: string; pending: string }>(
    `SELECT count(*) AS supplied,
            count(*) FILTER (WHERE EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = sm.supplier_code AND g.material_code = sm.material_code
                                           AND g.revoked_at IS NULL AND g.valid_from <= now() AT TIME ZONE 'UTC' AND g.valid_until > now() AT TIME ZONE 'UTC')) AS valid,
            (SELECT count(*) FROM empower_application a WHERE a.supplier_code = 'S001' AND a.status = 'SUBMITTED') AS pending
     FROM supplier_material sm WHERE sm.supplier_code = 'S001'`,
  );
  await page.goto(PAGES.noDrawingMaterialCensus.path);
  const census = page.locator('.ant-table-row').filter({ hasText: 'S001' });
  const cells = census.locator('td');
  await expect(cells.nth(1)).toHaveText(expected!.supplied);
  await expect(cells.nth(2)).toHaveText(expected!.valid);
  await expect(cells.nth(5)).toHaveText(String(Number(expected!.supplied) - Number(expected!.valid)));
  await expect(cells.nth(6)).toHaveText(expected!.pending);
  // sortable: 未授权物料 descending puts the largest first
  await page.getByRole('columnheader', { name: /未授权物料/ }).click();
  await page.getByRole('columnheader', { name: /未授权物料/ }).click();
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/empower-census.png' });
  // exportable
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  expect((await downloading).suggestedFilename()).toMatch(/^供应商统计_\d{14}\.xlsx$/);
  await expectToast(page, /已导出：供应商统计_/);

  // the access report, from the grant's row: who could see it today, on whose approval, and demo2's view
  await page.goto(PAGES.drawingAuthorizedFile.path);
  await filters.getByRole('textbox', { name: '物料编码' }).fill(MATERIAL);
  await filters.getByRole('button', { name: /搜\s*索/ }).click();
  await grantRow.getByRole('button', { name: '访问报告' }).click();
  await expect(page).toHaveURL(new RegExp(`drawingAccessReport\\?materialCode=${MATERIAL}&date=${day(0)}$`));
  const report = page.getByTestId('access-report');
  const reportRow = report.locator('.ant-table-row').filter({ hasText: `申请 ${id}` });
  await expect(reportRow).toContainText('陈静（demo6）');
  await expect(reportRow).toContainText('S001');
  const events = report.locator('.ant-table-row').filter({ hasText: 'demo2' }).filter({ hasText: '查看' });
  await expect(events.first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/empower-report.png' });
  const exporting = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  expect((await exporting).suggestedFilename()).toMatch(/^授权访问报告_\d{14}\.xlsx$/);
  await signOut(page);
});
