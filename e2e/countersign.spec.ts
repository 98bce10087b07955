/**
 * Countersign lists, the whole journey: demo3 issues a list to demo2 (S001)
 * with two internal signers, demo8 then demo9; demo2 signs with a condition; demo8 returns it;
 * demo3 edits and reissues it (round 1 stays readable); demo2, demo8 and demo9 sign; demo3 and
 * demo2 each download the sign-off sheet — their stamped copy, logged as a download. What the
 * pages must show is read from the database, not hard-coded.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { DELIVERED, sql } from './db.ts';
import { expectToast, pageState, pickOption, signIn, apiUrl } from './helpers.ts';
import { PAGES, countersignApi } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

const TITLE = `门体钣金件升版会签 ${Date.now().toString(36).toUpperCase()}`;
const CONDITION = '首批交付前完成工装验证';
const RETURN_REASON = '第 2 项请写明检测频次';
const shared = {} as { number: string; standardCode: string; sha256: string; name: string };

const tableSettled = (page: Page) => expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);

/** Opens the test's list from the list page of `path` (the list's number links to its drawer). */
async function openList(page: Page, account: string, path: string) {
  await signIn(page, account);
  await expect(page.getByTestId('breadcrumb')).toBeVisible();
  await page.goto(`/esm/${path}/countersignList`);
  await tableSettled(page);
  const filters = page.getByTestId('countersign-filters');
  await filters.getByPlaceholder('编号或标题').fill(TITLE);
  await filters.getByPlaceholder('编号或标题').press('Enter');
  const row = page.locator('.ant-table-row').filter({ hasText: TITLE });
  await expect(row).toHaveCount(1);
  await row.getByTestId('countersign-open').click();
  const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('countersign-detail') });
  await expect(drawer.getByTestId('countersign-detail')).toBeVisible();
  return drawer;
}

/** 下发's confirmation: asks first, then says so. */
async function confirmIssue(page: Page) {
  const confirm = page.getByRole('dialog', { name: `下发 ${shared.number}？` });
  // Once, on a busy CI machine, this dialog never showed and the drawer had closed: most likely a
  // click made while the drawer still slid in (the journeys now run without motion,
  // playwright.config.ts). A failure here says what the page was left in, as the log is all a CI
  // run keeps.
  await confirm.waitFor({ state: 'visible', timeout: 20_000 }).catch(async (e: unknown) => {
    throw new Error(`下发's confirm dialog did not show. ${await pageState(page)}\n${String(e)}`);
  });
  const issuing = page.waitForResponse((r) => r.url().endsWith(apiUrl(countersignApi.issue)));
  await confirm.getByRole('button', { name: /^下\s*发$/ }).click();
  expect((await issuing).status()).toBe(200);
  await expectToast(page, '已下发，等待供应商会签');
}

async function signAs(
  page: Page,
  account: string,
  path: string,
  decision: '同意' | '有条件同意' | '退回',
  text?: string,
  toast?: string,
) {
  const drawer = await openList(page, account, path);
  await drawer.getByRole('button', { name: /^会\s*签$/ }).click();
  const dialog = page.getByRole('dialog', { name: /会签 HQ-/ });
  await dialog.getByText(decision, { exact: true }).click();
  if (text) await dialog.getByRole('textbox').fill(text);
  await dialog.getByRole('button', { name: /^提\s*交$/ }).click();
  if (toast) await expectToast(page, toast);
  await expect(dialog).toBeHidden();
  return drawer;
}

test('demo3 creates a list for S001 with demo8 then demo9 and issues it', async ({ page }) => {
  const [file] = await sql<{ standard_code: string; sha256: string; name: string }>(
    `SELECT f.standard_code, f.sha256, f.name FROM standard_file f JOIN supplier_material sm ON sm.material_code = f.material_code AND sm.supplier_code = 'S001'
     WHERE f.status = 'EFFECTIVE' AND f.file_type = 'pdf' ORDER BY f.standard_code LIMIT 1`,
  );
  Object.assign(shared, { standardCode: file!.standard_code, sha256: file!.sha256, name: file!.name });

  await signIn(page, 'demo3');
  await expect(page.getByTestId('breadcrumb')).toBeVisible();
  await page.goto(PAGES.countersignList.path);
  await tableSettled(page);
  // the seeded lists show every state, the overdue one marked
  await expect(page.locator('.ant-table-row').filter({ hasText: '逾期' }).first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/countersign-list.png' });

  await page.getByRole('button', { name: '新建会签单' }).click();
  const form = page.getByRole('dialog', { name: '新建会签单' });
  await form.getByLabel('标题').fill(TITLE);
  await pickOption(page, form, '选择供应商', 'S001', 'S001');
  await form.getByLabel('会签事项').fill('1. 按新版图纸执行\n2. 首件送检');
  await pickOption(page, form, '涉及的文件版本', shared.standardCode, shared.standardCode);
  await pickOption(page, form, '我方会签人（按顺序）', 'demo8', 'demo8');
  await pickOption(page, form, '我方会签人（按顺序）', 'demo9', 'demo9');
  await form.getByRole('button', { name: /^保\s*存$/ }).click();
  await expectToast(page, /草稿已保存：HQ-/);
  const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('countersign-detail') });
  await expect(drawer.getByText(shared.standardCode)).toBeVisible();
  const [row] = await sql<{ number: string }>(`SELECT number FROM countersign WHERE title = $1`, [TITLE]);
  shared.number = row!.number;

  await drawer.getByRole('button', { name: 'send 下发' }).click();
  await confirmIssue(page);
  await expect(drawer.getByTestId('round-1')).toContainText('待会签：青岛海达精密机械有限公司');
  await page.screenshot({ path: 'e2e/screenshots/countersign-detail.png' });
});

test('demo2 signs with a condition', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  const drawer = await signAs(page, 'demo2', 'supplier', '有条件同意', CONDITION, '会签成功，等待我方会签');
  await expect(drawer.getByTestId('round-1').getByTestId('signature')).toContainText(CONDITION);
  await expect(drawer.getByRole('button', { name: /^会\s*签$/ })).toHaveCount(0);
  await page.screenshot({ path: 'e2e/screenshots/countersign-supplier-600.png', fullPage: true });
});

test('demo8 returns it with a reason', async ({ page }) => {
  const drawer = await signAs(page, 'demo8', 'drawingManagement', '退回', RETURN_REASON, '已退回');
  await expect(drawer.getByText('已退回').first()).toBeVisible();
});

test('demo3 edits and reissues it: round 2, round 1 kept', async ({ page }) => {
  const drawer = await openList(page, 'demo3', 'drawingManagement');
  await drawer.getByRole('button', { name: 'edit 编辑' }).click();
  const form = page.getByRole('dialog', { name: `编辑会签单 ${shared.number}` });
  await form.getByLabel('会签事项').fill('1. 按新版图纸执行\n2. 首件送检，量产后每批抽检 5 件');
  await form.getByRole('button', { name: /^保\s*存$/ }).click();
  await expectToast(page, `已保存：${shared.number}`);
  await drawer.getByRole('button', { name: 'send 重新下发' }).click();
  await confirmIssue(page);
  await expect(drawer.getByTestId('round-2')).toContainText('会签中');
  await expect(drawer.getByTestId('round-1')).toContainText(RETURN_REASON);
  await expect(drawer.getByTestId('round-1')).toContainText(CONDITION);
});

test('round 2: demo2 agrees', async ({ page }) => {
  await signAs(page, 'demo2', 'supplier', '同意', undefined, '会签成功，等待我方会签');
});

test('round 2: demo8 agrees', async ({ page }) => {
  await signAs(page, 'demo8', 'drawingManagement', '同意', undefined, '会签成功');
});

test('round 2: demo9 agrees last and the list is completed', async ({ page }) => {
  const drawer = await signAs(page, 'demo9', 'drawingManagement', '同意', undefined, '会签完成，已生成签核单');
  await expect(drawer.getByText('已完成').first()).toBeVisible();
  const rows = await sql<{ round: number; step: number; user_account: string; decision: string }>(
    `SELECT s.round, s.step, s.user_account, s.decision FROM countersign_signature s JOIN countersign c ON c.id = s.countersign_id WHERE c.number = $1 ORDER BY s.round, s.step`,
    [shared.number],
  );
  expect(rows.map((r) => `${r.round}/${r.step} ${r.user_account} ${r.decision}`)).toEqual([
    '1/0 demo2 CONDITIONAL',
    '1/1 demo8 RETURN',
    '2/0 demo2 AGREE',
    '2/1 demo8 AGREE',
    '2/2 demo9 AGREE',
  ]);
  await page.screenshot({ path: 'e2e/screenshots/countersign-completed.png' });
});

for (const [account, path] of [
  ['demo3', 'drawingManagement'],
  ['demo2', 'supplier'],
] as const) {
  test(`${account} downloads the sign-off sheet`, async ({ page }) => {
    const drawer = await openList(page, account, path);
    const downloading = page.waitForEvent('download');
    await drawer.getByRole('button', { name: '下载签核单' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`会签单签核单_${shared.number}.pdf`);
    await expectToast(page, `已下载：${download.suggestedFilename()}`);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const [log] = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM access_log l WHERE action = 'DOWNLOAD' AND ${DELIVERED} AND user_account = $1 AND standard_code = $2`,
      [account, shared.number],
    );
    expect(Number(log!.n)).toBe(1);
  });
}
