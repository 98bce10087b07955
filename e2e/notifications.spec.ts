/**
 * Notifications, the user's journey: demo3 publishes a change notice; demo2 (S001) sees it counted
 * on the header bell, opens it from the bell's panel, finds it in 我的通知 and marks everything read;
 * the mail demo2 got links to the notice, and that link opened in a browser without a session
 * leads through the login page to the notice. demo4 of the other supplier gets nothing of a notice
 * that went to S001 only. demo7 marks demo2's mail 已退回 with the bounce text and fixes demo2's
 * address (修改邮箱); demo2 chooses the daily digest in 个人设置. What the pages must show is read
 * from the database.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { settled, signIn, atPage, apiUrl } from './helpers.ts';
import { mails } from './mail.ts';
import { PAGES, noticesApi, type EndpointDef } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

const shared = {} as { noticeId: number; title: string; number: string };

const unreadOf = async (account: string) =>
  Number(
    (
      await sql<{ n: string }>(
        `SELECT count(*) AS n FROM notification n JOIN app_user u ON u.id = n.user_id WHERE u.account = $1 AND n.read_at IS NULL`,
        [account],
      )
    )[0]!.n,
  );

/** Calls the api as the page's signed-in user (its cookie). */
async function apiCall(page: Page, endpoint: EndpointDef, body: object) {
  const res = await page.request.post(apiUrl(endpoint), { data: body });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data;
}

test('demo3 publishes a notice that goes to S001 only', async ({ page }) => {
  // an effective version of a material S001 supplies under a valid grant, and S002 does not
  const [file] = await sql<{ id: number; product_line_code: string }>(
    `SELECT f.id, m.product_line_code FROM standard_file f JOIN material m ON m.code = f.material_code
     WHERE f.status = 'EFFECTIVE'
       AND EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = 'S001' AND sm.material_code = f.material_code)
       AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = 'S001' AND g.material_code = f.material_code AND g.revoked_at IS NULL AND g.valid_from <= now() AT TIME ZONE 'UTC' AND g.valid_until > now() AT TIME ZONE 'UTC')
       AND NOT EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code <> 'S001' AND sm.material_code = f.material_code)
     ORDER BY f.id LIMIT 1`,
  );
  expect(file).toBeDefined();
  await signIn(page, 'demo3');
  await settled(page);
  shared.title = `通知中心测试 ${Date.now().toString(36)}`;
  const due = new Date(Date.now() + 8 * 3600_000 + 7 * 86_400_000).toISOString().slice(0, 10);
  const draft = await apiCall(page, noticesApi.create, {
    title: shared.title,
    reason: '结构优化',
    productLineCode: file!.product_line_code,
    dueDate: due,
    newFileIds: [file!.id],
  });
  shared.noticeId = draft.id;
  shared.number = draft.number;
  await apiCall(page, noticesApi.publish, { id: draft.id });
  const told = await sql<{ account: string }>(
    `SELECT u.account FROM notification n JOIN app_user u ON u.id = n.user_id WHERE n.link_path = $1 ORDER BY 1`,
    [`${PAGES.noticeOfChangeOfDrawings.path}?id=${draft.id}`],
  );
  const s001 = await sql<{ account: string }>(
    `SELECT account FROM app_user WHERE supplier_code = 'S001' AND type IN (2, 4) AND enabled ORDER BY 1`,
  );
  expect(told).toEqual(s001);
  expect(told.map((t) => t.account)).not.toContain('demo4');
});

test('demo2 sees it on the bell, opens it, and reads everything in 我的通知', async ({ page }) => {
  const unread = await unreadOf('demo2');
  expect(unread).toBeGreaterThanOrEqual(1);
  await signIn(page, 'demo2');
  await settled(page);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAttribute('aria-label', `通知，${unread} 条未读`);
  await bell.click();
  const panel = page.getByTestId('notification-bell-panel');
  await panel.getByTestId('notification-bell-item').filter({ hasText: shared.title }).click();
  await expect(page).toHaveURL(new RegExp(`noticeOfChangeOfDrawings\\?id=${shared.noticeId}$`));
  await expect(page.getByTestId('notice-header')).toContainText(shared.title);
  await expect(bell).toHaveAttribute('aria-label', unread > 1 ? `通知，${unread - 1} 条未读` : '通知');

  // the centre: the notice is there, read; 全部已读 clears the bell
  await page.goto(PAGES.notifications.path);
  await settled(page);
  const row = page.locator('.ant-table-row').filter({ hasText: shared.title });
  await expect(row).toContainText('图纸变更通知');
  await expect(row).toContainText('已读');
  await page.screenshot({ path: 'e2e/screenshots/notifications-1366.png' });
  await page.getByTestId('notifications-read-all').click();
  await expect(bell).toHaveAttribute('aria-label', '通知');
  expect(await unreadOf('demo2')).toBe(0);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await settled(page);
  await expect(page.getByTestId('notification-bell')).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/notifications-390.png', fullPage: true });
});

test('demo2’s mail links to the notice; opened without a session it leads through login to the notice', async ({
  browser,
}) => {
  const link = `${PAGES.noticeOfChangeOfDrawings.path}?id=${shared.noticeId}`;
  await expect
    .poll(() => mails().filter((m) => m.to.includes('demo2@example.com') && m.subject.includes(shared.title)).length, {
      timeout: 60_000,
    })
    .toBe(1);
  const mail = mails().find((m) => m.to.includes('demo2@example.com') && m.subject.includes(shared.title))!;
  expect(mail.subject).toBe(`【ESM 图纸档案门户】图纸变更通知 ${shared.number}：${shared.title}`);
  expect(mails().filter((m) => m.to.includes('demo4@example.com') && m.subject.includes(shared.title))).toEqual([]);
  const url = /https?:\/\/\S+/.exec(mail.text.split('查看详情：')[1] ?? '')?.[0];
  expect(url).toMatch(new RegExp(`${link.replace(/[?]/g, '\\?')}$`));

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url!);
  await expect(page).toHaveURL(/\/esm\/login\?redirect=/);
  await page.getByPlaceholder('账号').fill('demo2');
  await page.getByPlaceholder('密码').fill('Esm@2026');
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).toHaveURL(new RegExp(`noticeOfChangeOfDrawings\\?id=${shared.noticeId}$`));
  await expect(page.getByTestId('notice-header')).toContainText(shared.title);
  await context.close();
});

/** demo7 in 系统管理 → 通知发送记录, searching demo2's address: the row of this journey's notice. */
async function demo2MailInLog(page: Page) {
  await signIn(page, 'demo7');
  await settled(page);
  await page.goto(PAGES.notificationLog.path);
  await settled(page);
  await page.getByPlaceholder('收件人账号、姓名或邮箱').fill('demo2@example.com');
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  return page.locator('.ant-table-row').filter({ hasText: shared.title });
}

test('demo7 reads demo2’s mail in 系统管理 → 通知发送记录: 已发送, one try, the server’s answer', async ({ page }) => {
  const row = await demo2MailInLog(page);
  await expect(row).toContainText('已发送');
  await expect(row).toContainText('demo2@example.com');
  await expect(row).toContainText('250');
  // 导出Excel: the filtered log as .xlsx
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^通知发送记录_\d+\.xlsx$/);
  expect((await readFile((await file.path())!)).subarray(0, 2).toString()).toBe('PK'); // an .xlsx is a zip
});

test('demo7 marks demo2’s mail 已退回 with the bounce text, finds it under 未送达, and fixes demo2’s address', async ({
  page,
}) => {
  const row = await demo2MailInLog(page);
  await row.getByRole('button', { name: '标记为已退回' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: '标记为已退回' }).click();
  await expect(dialog).toContainText('请输入退信内容');
  await dialog.getByLabel('退信内容').fill('550 5.1.1 <demo2@example.com>: user unknown');
  await dialog.getByRole('button', { name: '标记为已退回' }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '已标记为已退回' })).toBeVisible();
  await expect(row).toContainText('已退回');
  await expect(row).toContainText('550 5.1.1');
  await expect(row.getByRole('button', { name: '标记为已退回' })).toHaveCount(0);
  const [moved] = await sql<{ state: string; by_name: string }>(
    `SELECT d.state, e.by_name FROM notification_delivery d JOIN notification n ON n.id = d.notification_id JOIN notification_delivery_move e ON e.delivery_id = d.id WHERE n.link_path = $1 AND d.address = 'demo2@example.com'`,
    [`${PAGES.noticeOfChangeOfDrawings.path}?id=${shared.noticeId}`],
  );
  expect(moved).toEqual({ state: 'BOUNCED', by_name: 'demo7' });
  // 未送达 = 失败 + 已退回
  await page.getByTestId('notification-log-filters').getByRole('combobox', { name: '状态' }).click();
  await page.locator('.ant-select-dropdown:visible').getByText('未送达（失败或已退回）', { exact: true }).click();
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(row).toContainText('已退回');
  await page.screenshot({ path: 'e2e/screenshots/notification-log-bounced-1366.png' });
  // 修改邮箱: the same rule as 个人设置
  await row.getByRole('button', { name: '修改邮箱' }).click();
  const emailDialog = page.getByRole('dialog');
  await emailDialog.getByLabel('邮箱').fill('demo2@');
  await emailDialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(emailDialog).toContainText('邮箱格式不正确，例如 zhangwei@example.com');
  await emailDialog.getByLabel('邮箱').fill('demo2.new@example.com');
  await emailDialog.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: 'demo2.new@example.com' })).toBeVisible();
  expect(await sql(`SELECT email FROM app_user WHERE account = 'demo2'`)).toEqual([{ email: 'demo2.new@example.com' }]);
  await sql(`UPDATE app_user SET email = 'demo2@example.com' WHERE account = 'demo2'`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await settled(page);
  await page.screenshot({ path: 'e2e/screenshots/notification-log-bounced-390.png', fullPage: true });
});

test('demo2 opens 个人设置 from the header name, is told a bad address, and saves its address and mail choices', async ({
  page,
}) => {
  await signIn(page, 'demo2');
  await settled(page);
  await page.getByTestId('header-user-name').click();
  await expect(page).toHaveURL(atPage(PAGES.settings));
  const form = page.getByTestId('settings-page');
  const email = form.getByLabel('邮箱');
  await expect(email).toHaveValue('demo2@example.com');
  await email.fill('zhangwei@');
  await page.getByTestId('settings-save').click();
  await expect(form).toContainText('邮箱格式不正确，例如 zhangwei@example.com');
  await email.fill('zhangwei@example.com');
  // a supplier is offered the kinds a supplier receives, not the approvers' or answerers'
  await expect(form.getByLabel('授权申请待审批')).toHaveCount(0);
  await expect(form.getByLabel('图纸问题待回复')).toHaveCount(0);
  await form.getByLabel('授权申请审批结果').uncheck();
  await form.getByLabel('每日汇总（每天一封）').check();
  await page.getByTestId('settings-save').click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: '个人设置已保存' })).toBeVisible();
  const [saved] = await sql<{ email: string; muted_kinds: string[]; digest: boolean }>(
    `SELECT u.email, p.muted_kinds, p.digest FROM app_user u JOIN notification_preference p ON p.user_id = u.id WHERE u.account = 'demo2'`,
  );
  expect(saved).toEqual({ email: 'zhangwei@example.com', muted_kinds: ['APPLICATION_DECIDED'], digest: true });
  await page.screenshot({ path: 'e2e/screenshots/settings-1366.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('settings-page').getByLabel('邮箱')).toHaveValue('zhangwei@example.com');
  await expect(page.getByTestId('settings-page').getByLabel('每日汇总（每天一封）')).toBeChecked();
  await page.screenshot({ path: 'e2e/screenshots/settings-390.png', fullPage: true });
  // put the demo's address back for the journeys after this one
  await sql(`UPDATE app_user SET email = 'demo2@example.com' WHERE account = 'demo2'`);
  await sql(`DELETE FROM notification_preference WHERE user_id = (SELECT id FROM app_user WHERE account = 'demo2')`);
});
