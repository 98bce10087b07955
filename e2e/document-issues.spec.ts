/**
 * Questions on drawings, the whole journey: demo2 asks about HR-BX-D001 (冰箱)
 * with a PDF attached; it routes to demo5 (冰箱 × 产品线), who opens the drawing in the viewer and
 * replies with an attachment; demo2 reopens with a follow-up, demo5 answers again, demo2 closes.
 * Then demo7 adds a problem type (SQE) and a role row (空调 × SQE → demo5), and demo2's next
 * question, on an 空调 drawing of that type, routes by it. What the pages must show is checked
 * against the database.
 */
import { expect, test, type Page, type PlaywrightWorkerArgs } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { DELIVERED, sql } from './db.ts';
import { PASSWORD, expectToast, pickOption, settled, signIn, signOut, unfoldMenu, apiUrl, atPage } from './helpers.ts';
import { PAGES, permissionsApi, sessionApi } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36).slice(-5).toUpperCase();
const TITLE = `门封槽尺寸确认 ${RUN}`;
const NEW_TYPE = `安装孔疑问${RUN}`;
/** A one-page PDF: an attachment must be one the server can stamp for whoever downloads it. */
async function onePagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([420, 297]);
  return Buffer.from(await doc.save());
}
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Closes the question's drawer with its × (a user's way; Escape goes to whatever has focus). The
 * toasts first: the centred toast of the action just taken (已回复) can sit over the drawer's ×,
 * and a pointer resting on a toast keeps it open — a click aimed at the × then waited on it until
 * the test's time ran out (seen in CI).
 */
async function closeThread(page: Page) {
  await noToasts(page);
  await page
    .locator('.ant-drawer')
    .filter({ has: page.getByTestId('issue-thread') })
    .locator('.ant-drawer-close')
    .click();
  await expect(page.getByTestId('issue-thread')).toBeHidden();
}

const tableSettled = (page: Page) => expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
/**
 * A 600 px full-page screenshot of the page `page` is on, taken in a page of its own in the same
 * session: `page` stays at 1366 px. Resizing `page` to 600 px, a full-page screenshot and back
 * to 1366 px left it, now and then, without a new frame: the next click on 退出 waited for the
 * header to be stable until the test timed out, with the header on screen.
 */
async function narrowShot(page: Page, path: string) {
  const narrow = await page.context().newPage();
  try {
    await narrow.setViewportSize({ width: 600, height: 900 });
    await narrow.goto(page.url());
    await expect(narrow.locator('main')).toBeVisible();
    await tableSettled(narrow);
    await narrow.screenshot({ path, fullPage: true });
  } finally {
    await narrow.close();
  }
}
/** No toast left (the pointer moved off first: a toast under the pointer waits for it to leave). */
async function noToasts(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
}

async function issueRow(title: string) {
  const [row] = await sql<{ id: number; status: string; assignee: string | null; number: string }>(
    `SELECT i.id, i.status, u.account AS assignee, i.number FROM document_issue i LEFT JOIN app_user u ON u.id = i.assignee_id WHERE i.title = $1`,
    [title],
  );
  return row;
}

async function openMyQuestion(page: Page, account: 'demo2' | 'demo5', title: string) {
  await unfoldMenu(page);
  await signIn(page, account);
  if (account === 'demo2') {
    await expect(page).toHaveURL(atPage(PAGES.dashboardS));
    const menu = page.getByTestId('side-menu');
    await menu.getByText('供应商专区', { exact: true }).click();
    await menu.getByText('图纸问题', { exact: true }).click();
    await expect(page).toHaveURL(atPage(PAGES.documentIssue));
  } else {
    // type 5's only page is its landing
    await expect(page).toHaveURL(atPage(PAGES.documentIssueH));
  }
  await settled(page);
  const row = page.locator('.ant-table-row').filter({ hasText: title });
  await row.getByRole('button', { name: /^查\s*看$/ }).click();
  const thread = page.getByTestId('issue-thread');
  await expect(thread).toBeVisible();
  return thread;
}

test('demo2 asks about a drawing with a PDF attached; it routes to demo5', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  const menu = page.getByTestId('side-menu');
  await menu.getByText('供应商专区', { exact: true }).click();
  await menu.getByText('图纸问题', { exact: true }).click();
  await settled(page);
  // the seed's questions, one overdue
  await expect(page.locator('.ant-table-row').filter({ hasText: '内桶焊缝抽检比例' })).toContainText('逾期');
  await noToasts(page);
  await page.screenshot({ path: 'e2e/screenshots/document-issue-supplier.png' });

  await page.getByRole('button', { name: '提问' }).click();
  const dialog = page.getByRole('dialog', { name: '提问' });
  await pickOption(page, dialog, '图纸（物料与版本）', /HR-BX-D001 冰箱门体总装图 版本 C/, 'HR-BX-D001');
  await pickOption(page, dialog, '问题类型', /^尺寸公差疑问/, '尺寸公差');
  await dialog.getByLabel('问题标题').fill(TITLE);
  await dialog.getByLabel('问题描述').fill('C 版门封槽深度与 B 版不同，请确认以哪一版为准。');
  await pickOption(page, dialog, '采购员', '周俊');
  // a type the portal refuses is refused before any upload
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(dialog.getByRole('alert')).toContainText('类型不支持');
  await dialog
    .locator('input[type=file]')
    .setInputFiles({ name: '门封槽实测.pdf', mimeType: 'application/pdf', buffer: await onePagePdf() });
  await expect(dialog.getByTestId('attachment-picker')).toContainText('门封槽实测.pdf');
  await page.screenshot({ path: 'e2e/screenshots/document-issue-ask.png' });
  await dialog.getByRole('button', { name: /^提\s*交$/ }).click();
  await expectToast(page, '已提交，已分派给 刘洋');

  const row = await issueRow(TITLE);
  expect(row).toMatchObject({ status: 'PROCESSING', assignee: 'demo5' });
  const [att] = await sql<{ file_name: string; sha256: string }>(
    `SELECT file_name, sha256 FROM document_issue_attachment WHERE issue_id = $1`,
    [row!.id],
  );
  expect(att!.file_name).toBe('门封槽实测.pdf');
  await expect(page.locator('.ant-table-row').filter({ hasText: TITLE })).toContainText('处理中');
  await signOut(page);
});

test('demo5 finds it assigned, opens the drawing in the viewer and replies with an attachment', async ({ page }) => {
  const thread = await openMyQuestion(page, 'demo5', TITLE);
  await expect(thread).toContainText('门封槽实测.pdf');
  await thread.getByRole('button', { name: '查看图纸' }).click();
  await expect(page.getByTestId('viewer-toolbar')).toBeVisible();
  await expect(
    page.locator('.ant-drawer').filter({ hasText: 'HR-BX-D001 冰箱门体总装图' }).locator('canvas').first(),
  ).toBeVisible();
  await page
    .locator('.ant-drawer')
    .filter({ has: page.getByTestId('viewer-toolbar') })
    .locator('.ant-drawer-close')
    .click();
  await expect(page.getByTestId('viewer-toolbar')).toBeHidden();

  const box = thread.getByTestId('reply-box');
  await box.getByLabel('回复内容').fill('以 C 版为准，门封槽深度 4.5±0.1，详见附图。');
  await box.locator('input[type=file]').setInputFiles({ name: '门封槽标注.png', mimeType: 'image/png', buffer: PNG });
  await expect(box.getByTestId('attachment-picker')).toContainText('门封槽标注.png');
  await page.setViewportSize({ width: 1366, height: 800 });
  await page.screenshot({ path: 'e2e/screenshots/document-issue-reply.png' });
  await box.getByRole('button', { name: /^回\s*复$/ }).click();
  await expectToast(page, '已回复');
  await expect(thread.getByTestId('message-REPLY')).toContainText('门封槽标注.png');
  expect((await issueRow(TITLE))!.status).toBe('ANSWERED');
  await closeThread(page);
  await noToasts(page);
  await page.screenshot({ path: 'e2e/screenshots/document-issue-handler.png' });
  await narrowShot(page, 'e2e/screenshots/document-issue-handler-narrow.png');
  await signOut(page);
});

test('demo2 reads the answer, downloads its attachment and reopens with a follow-up', async ({ page }) => {
  const thread = await openMyQuestion(page, 'demo2', TITLE);
  await expect(thread.getByTestId('message-REPLY')).toContainText('以 C 版为准');
  const download = page.waitForEvent('download');
  await thread
    .getByTestId('message-REPLY')
    .getByRole('button', { name: /门封槽标注\.png/ })
    .click();
  // demo2's stamped copy, named with the supplier and the minute; its DOWNLOAD row names the question
  expect((await download).suggestedFilename()).toMatch(/^门封槽标注_问题附件_青岛海达精密机械有限公司_\d{12}\.png$/);
  const { number } = (await issueRow(TITLE))!;
  const logged = await sql<{ delivered: boolean; version: string }>(
    `SELECT ${DELIVERED} AS delivered, version FROM access_log l WHERE action = 'DOWNLOAD' AND user_account = 'demo2' AND standard_code = $1 AND file_name = '门封槽标注.png'`,
    [number],
  );
  expect(logged).toEqual([{ delivered: true, version: '问题附件' }]);
  const box = thread.getByTestId('reply-box');
  await box.getByLabel('追问内容').fill('4.5 是否为发泡后的尺寸？');
  await box.getByRole('button', { name: '追问并重新打开' }).click();
  await expectToast(page, '已追问，问题重新打开');
  await expect(thread.getByTestId('message-REOPEN')).toContainText('发泡后');
  expect(await issueRow(TITLE)).toMatchObject({ status: 'PROCESSING', assignee: 'demo5' });
  await page.setViewportSize({ width: 600, height: 900 });
  await page.screenshot({ path: 'e2e/screenshots/document-issue-thread-narrow.png' });
  await page.setViewportSize({ width: 1366, height: 800 });
  await closeThread(page);
  await signOut(page);
});

/** 回复人 on the answerers' page for these user types (through the API as demo7: the server's cache drops the old rule at once). */
async function answererColumnFor(playwright: PlaywrightWorkerArgs['playwright'], allowedTypes: number[]) {
  const request = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    expect(
      (await request.post(apiUrl(sessionApi.login), { data: { account: 'demo7', password: PASSWORD } })).ok(),
    ).toBe(true);
    const [col] = await sql<{ id: number; version: number; label: string }>(
      `SELECT id, version, label FROM permission_item WHERE kind = 'COLUMN' AND page = '${PAGES.documentIssueH.path}' AND code = 'assigneeName'`,
    );
    const res = await request.post(apiUrl(permissionsApi.update), {
      data: { id: col!.id, version: col!.version, label: col!.label, allowedTypes, maskedTypes: [] },
    });
    expect(res.ok(), await res.text()).toBe(true);
  } finally {
    await request.dispose();
  }
}

test('demo5 answers again, with 回复人 hidden from type 5: the server says the question is theirs', async ({
  page,
  playwright,
}) => {
  await answererColumnFor(playwright, [2, 3, 4, 6, 7, 8, 9]);
  try {
    await answerAgain(page);
  } finally {
    await answererColumnFor(playwright, [2, 3, 4, 5, 6, 7, 8, 9]);
  }
});

async function answerAgain(page: Page) {
  const thread = await openMyQuestion(page, 'demo5', TITLE);
  // no name and no id tell who holds it: the reply box is there because the row says assignedToMe
  await expect(thread.locator('.ant-descriptions-item-label').filter({ hasText: /^处理人$/ })).toHaveCount(0);
  await expect(thread.getByTestId('message-ROUTE')).toContainText('（已隐藏）');
  const box = thread.getByTestId('reply-box');
  await box.getByLabel('回复内容').fill('是发泡后的尺寸。');
  await box.getByRole('button', { name: /^回\s*复$/ }).click();
  await expectToast(page, '已回复');
  expect((await issueRow(TITLE))!.status).toBe('ANSWERED');
  // the toast comes to rest below the drawer's header: its × takes the click at once, toast or not
  const drawer = page.locator('.ant-drawer').filter({ has: page.getByTestId('issue-thread') });
  const header = (await drawer.locator('.ant-drawer-header').boundingBox())!;
  const toast = page.locator('.ant-message-notice').filter({ hasText: '已回复' }).first();
  await expect.poll(async () => (await toast.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(header.y + header.height);
  await drawer.locator('.ant-drawer-close').click();
  await expect(page.getByTestId('issue-thread')).toBeHidden();
  await signOut(page);
}

test('demo2 closes the question', async ({ page }) => {
  const thread = await openMyQuestion(page, 'demo2', TITLE);
  await expect(thread.getByTestId('message-REPLY').last()).toContainText('是发泡后的尺寸');
  await thread.getByRole('button', { name: '关闭问题' }).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: '关闭问题' }).click();
  await expectToast(page, '问题已关闭');
  expect((await issueRow(TITLE))!.status).toBe('CLOSED');
  const [n] = await sql<{ actions: string }>(
    `SELECT string_agg(action, ',' ORDER BY id) AS actions FROM document_issue_message WHERE issue_id = $1`,
    [(await issueRow(TITLE))!.id],
  );
  expect(n!.actions).toBe('CREATE,SUBMIT,ROUTE,REPLY,REOPEN,REPLY,CLOSE');
  await closeThread(page);
  await expect(page.locator('.ant-table-row').filter({ hasText: TITLE })).toContainText('已关闭');
  await signOut(page);
});

test('demo7 adds a problem type and a role row; the next question routes by them', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo7');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.getByTestId('side-menu').getByText('人员管理', { exact: true }).click();
  await page.getByTestId('side-menu').getByText('SQE及产品线管理', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.problemType));
  await settled(page);
  const types = page.getByTestId('problem-types');
  await expect(types.locator('.ant-table-row').filter({ hasText: '包装与标识' })).toBeVisible();
  // a type in use cannot be deleted: the refusal says to disable it
  await types
    .locator('.ant-table-row')
    .filter({ hasText: '尺寸公差疑问' })
    .getByRole('button', { name: /^删\s*除$/ })
    .click();
  await expectToast(page, /不能删除；如不再使用请停用/);

  await types.getByRole('button', { name: '新增问题类型' }).click();
  const typeDialog = page.getByRole('dialog', { name: '新增问题类型' });
  await typeDialog.getByLabel('问题类型名称').fill(NEW_TYPE);
  await pickOption(page, typeDialog, '处理角色', 'SQE');
  await typeDialog.getByLabel('响应时间（工作日，周一至周五）').fill('2');
  await typeDialog.getByRole('button', { name: /^保\s*存$/ }).click();
  await expectToast(page, '问题类型已新增');
  await expect(types.locator('.ant-table-row').filter({ hasText: NEW_TYPE })).toContainText('2 个工作日');

  const roles = page.getByTestId('role-table');
  await roles.getByRole('button', { name: '新增角色' }).click();
  const roleDialog = page.getByRole('dialog', { name: '新增角色' });
  await pickOption(page, roleDialog, '产品线', '空调');
  await pickOption(page, roleDialog, '角色', 'SQE');
  await pickOption(page, roleDialog, '人员（图纸问题回复人员）', /刘洋（demo5）/, 'demo5');
  await roleDialog.getByRole('button', { name: /^添\s*加$/ }).click();
  await expectToast(page, '角色已添加');
  await expect(roles.locator('.ant-table-row').filter({ hasText: '空调' }).filter({ hasText: 'SQE' })).toContainText(
    '刘洋',
  );
  await noToasts(page);
  await page.screenshot({ path: 'e2e/screenshots/problem-type.png', fullPage: true });
  await narrowShot(page, 'e2e/screenshots/problem-type-narrow.png');
  await signOut(page);

  // demo2's next question, on an 空调 drawing of the new type, goes to demo5
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(PAGES.documentIssue.path);
  await settled(page);
  await page.getByRole('button', { name: '提问' }).click();
  const dialog = page.getByRole('dialog', { name: '提问' });
  await pickOption(page, dialog, '图纸（物料与版本）', /HR-KT-D202 贯流风叶零件图 版本 C/, 'HR-KT-D202');
  await pickOption(page, dialog, '问题类型', NEW_TYPE, NEW_TYPE);
  await expect(dialog.locator('.ant-form-item').filter({ hasText: '问题类型' })).toContainText(NEW_TYPE);
  const title = `风叶安装孔 ${RUN}`;
  await dialog.getByLabel('问题标题').fill(title);
  await dialog.getByLabel('问题描述').fill('安装孔位置与 C 版动平衡要求是否冲突？');
  await dialog.getByRole('button', { name: /^提\s*交$/ }).click();
  await expectToast(page, '已提交，已分派给 刘洋');
  expect(await issueRow(title)).toMatchObject({ status: 'PROCESSING', assignee: 'demo5' });
});
