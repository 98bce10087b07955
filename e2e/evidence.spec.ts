/**
 * The auditor's journey with an evidence package (证据包): demo3 opens 授权访问报告 for 0064000101,
 * exports S001's package, checks it with the verify command an auditor runs (the built CLI, offline),
 * then a row is altered by SQL and `pnpm audit:verify` against the database names it. The census and
 * a notice's recipients matrix offer the package too.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, expectToast, settled, signIn, unfoldMenu, apiUrl, atPage } from './helpers.ts';
import { e2eDatabaseUrl, sql } from './db.ts';
import { PAGES, filesApi, sessionApi } from '../packages/contracts/src/index.ts';

const CLI = path.resolve('apps/api/dist/audit-cli.mjs');

/** The built verify command, as an operator or an auditor runs it. */
function auditCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'verify', ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

const toastsGone = (page: Page) => expect(page.locator('.ant-message-notice')).toHaveCount(0);

test('demo3: access report → evidence package → verify passes; a row altered by SQL → audit:verify names it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  // demo2 (S001) downloads a drawing of 0064000101: a stamped copy, its copy code on the log row
  const [file] = await sql<{ id: number }>(
    `SELECT id FROM standard_file WHERE material_code = '0064000101' AND status = 'EFFECTIVE' AND file_type = 'pdf' ORDER BY id LIMIT 1`,
  );
  await sql(
    `INSERT INTO keepsecret_acceptance (agreement_id, user_id, supplier_code)
     SELECT a.id, u.id, 'S001' FROM keepsecret_agreement a, app_user u WHERE u.account = 'demo2' AND a.version = (SELECT max(version) FROM keepsecret_agreement)
     ON CONFLICT DO NOTHING`,
  );
  const supplier = await browser.newContext();
  expect(
    (
      await supplier.request.post(apiUrl(sessionApi.login), {
        data: { account: 'demo2', password: PASSWORD },
      })
    ).ok(),
  ).toBe(true);
  expect((await supplier.request.post(apiUrl(filesApi.download), { data: { id: file!.id } })).status()).toBe(200);
  await supplier.close();
  const [copy] = await sql<{ id: number; copy_code: string }>(
    `SELECT id, copy_code FROM access_log WHERE user_account = 'demo2' AND action = 'DOWNLOAD' ORDER BY id DESC LIMIT 1`,
  );

  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.getByTestId('side-menu').getByText('授权访问报告', { exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === PAGES.drawingAccessReport.path);
  // The report's own heading first: the address changes before the page does (the navigation is a
  // transition), and settled() alone could pass on 档案信息 still on screen — whose 物料编码 box
  // the code then went into, lost when the report took its place (app/router.tsx; shell.spec.ts
  // "a page whose code is on its way …").
  await expect(page.getByRole('heading', { level: 1, name: '授权访问报告' })).toBeVisible();
  await settled(page);
  const code = page.getByRole('textbox', { name: '物料编码' });
  const grants = page.getByTestId('report-grants');
  const button = grants.getByTestId('evidence-S001').first();
  await code.fill('0064000101');
  await page.getByRole('button', { name: /查\s*询/ }).click();
  await expect(button).toBeVisible();
  await expect(code).toHaveValue('0064000101');
  // the columns an auditor decides by, and the button, are on screen at 1366 without scrolling
  await expect(button).toBeInViewport();

  const download = page.waitForEvent('download');
  await button.click();
  const got = await download;
  await expectToast(page, /已生成证据包：证据包_S001_0064000101_\d{14}\.zip/);
  expect(got.suggestedFilename()).toMatch(/^证据包_S001_0064000101_\d{14}\.zip$/);
  const zip = (await got.path())!;

  // the auditor's check, offline: passes, naming the heads it was made against
  const ok = await auditCli(['--package', zip]);
  expect(ok.out).toContain('evidence package verified');
  expect(ok.out).toMatch(/access_log: \d+ rows, head [0-9a-f]{64}/);
  expect(ok.code).toBe(0);

  // the export itself is in the (chained) access log
  const [logged] = await sql<{ n: number }>(
    `SELECT count(*)::int AS n FROM access_log WHERE user_account = 'demo3' AND action = 'DOWNLOAD' AND file_name LIKE '证据包_S001_%' AND chain_seq IS NOT NULL`,
  );
  expect(logged!.n).toBeGreaterThan(0);

  await toastsGone(page);
  await page.screenshot({ path: 'e2e/screenshots/evidence-report-1366.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'e2e/screenshots/evidence-report-390.png', fullPage: true });
  await page.setViewportSize({ width: 1366, height: 800 });

  // someone with write access changes demo2's download row: the verify against the database names it
  const [row] = await sql<{ chain_seq: number; ip: string | null }>(
    `SELECT chain_seq, ip FROM access_log WHERE id = $1`,
    [copy!.id],
  );
  await sql(`UPDATE access_log SET ip = '203.0.113.66' WHERE id = $1`, [copy!.id]);
  try {
    const broken = await auditCli([], { DATABASE_URL: e2eDatabaseUrl() });
    expect(broken.code).toBe(1);
    expect(broken.out).toContain(`access_log：id ${copy!.id}（链位置 ${row!.chain_seq}）的内容已被修改`);
  } finally {
    await sql(`UPDATE access_log SET ip = $2 WHERE id = $1`, [copy!.id, row!.ip]);
  }
});

test('the supplier census and a notice’s recipients matrix export evidence packages', async ({ page }) => {
  test.setTimeout(120_000);
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await page.goto(PAGES.noDrawingMaterialCensus.path);
  await page.getByTestId('evidence-S001').click();
  const dialog = page.getByRole('dialog');
  // neither a material nor a drawing: said at the field
  await dialog.getByRole('button', { name: '生成并下载' }).click();
  await expect(dialog.getByText('请输入物料编码或标准编号')).toBeVisible();
  await dialog.getByRole('textbox', { name: '物料编码' }).fill('0064000101');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: '生成并下载' }).click();
  expect((await download).suggestedFilename()).toMatch(/^证据包_S001_0064000101_\d{14}\.zip$/);
  await expectToast(page, /已生成证据包/);
  await toastsGone(page);
  await page.screenshot({ path: 'e2e/screenshots/evidence-census-1366.png', fullPage: true });

  const [notice] = await sql<{ id: number; number: string }>(
    `SELECT n.id, n.number FROM change_notice n WHERE n.status = 'PUBLISHED' AND EXISTS (SELECT 1 FROM notice_recipient r WHERE r.notice_id = n.id AND r.status = 'CONFIRMED') ORDER BY n.id LIMIT 1`,
  );
  await page.goto(`${PAGES.noticeOfChangeOfDrawingsHR.path}?id=${notice!.id}`);
  const button = page.getByTestId('notice-evidence');
  await expect(button).toBeVisible();
  const noticeDownload = page.waitForEvent('download');
  await button.click();
  const got = await noticeDownload;
  expect(got.suggestedFilename()).toContain(`证据包_${notice!.number}_`);
  const ok = await auditCli(['--package', (await got.path())!]);
  expect(ok.code, ok.out).toBe(0);
  await toastsGone(page);
  await page.screenshot({ path: 'e2e/screenshots/evidence-notice-1366.png', fullPage: true });
});
