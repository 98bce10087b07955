/**
 * The internal drawing archive as demo3 (type 3) uses it: lands on 档案信息, browses
 * the product line → material tree, filters, uploads a new version of an existing standard code
 * (the old one then shows as 历史版本 in 档案历史), obsoletes a version after confirming, views a
 * PDF, exports the list to .xlsx, and opens each of the five log pages. What the pages must show
 * is read from the database (the demo seed), not hard-coded; the files changed here are chosen
 * among those no S001 journey relies on.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { SECRET_LEVEL_LABELS, type SecretLevel } from '../packages/contracts/src/archives.ts';
import { NETWORK_ERROR_TEXT } from '../packages/contracts/src/errors.ts';
import { sql } from './db.ts';
import { expectToast, signIn, atPage, apiUrl } from './helpers.ts';
import { PAGES, archivesApi } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

interface FileRow {
  id: number;
  standard_code: string;
  name: string;
  version: string;
  version_no: number;
  material_code: string;
  secret_level: string;
}

/** Effective PDFs of materials S001 does not supply, so the supplier journeys never meet them. */
async function effectivePdfsOutsideS001(): Promise<FileRow[]> {
  const rows = await sql<FileRow>(
    `SELECT f.id, f.standard_code, f.name, f.version, f.version_no, f.material_code, f.secret_level FROM standard_file f
     WHERE f.status = 'EFFECTIVE' AND f.file_type = 'pdf'
       AND NOT EXISTS (SELECT 1 FROM supplier_material s WHERE s.supplier_code = 'S001' AND s.material_code = f.material_code)
     ORDER BY f.standard_code`,
  );
  expect(rows.length, 'the demo seed has effective PDFs outside S001').toBeGreaterThanOrEqual(3);
  return rows;
}

const count = async (where = 'TRUE', values: unknown[] = []) =>
  Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM standard_file WHERE ${where}`, values))[0]!.n);

/** The table's data arrived and its spinner (kept 200 ms after loading) is gone. */
const tableSettled = async (page: Page) => {
  await expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
};
const rows = (page: Page) => page.locator('.ant-table-row');
const filters = (page: Page) => page.getByTestId('file-filters');

async function openArchive(page: Page) {
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await expect(rows(page).first()).toBeVisible();
}

async function searchStandardCode(page: Page, code: string) {
  await filters(page).getByRole('textbox', { name: '标准编号' }).fill(code);
  await filters(page)
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  await tableSettled(page);
}

/** A small two-page PDF written to a temp file, as a user would pick one from disk. */
async function pdfFixture(title: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 2; n++) {
    const p = doc.addPage([595, 842]);
    p.drawRectangle({ x: 36, y: 36, width: 523, height: 770, borderColor: rgb(0, 0, 0), borderWidth: 1.5 });
    p.drawText(`${title} - page ${n}`, { x: 60, y: 770, size: 18, font });
  }
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'esm-e2e-')), `${title.replace(/[^\w-]/g, '_')}.pdf`);
  await writeFile(file, await doc.save());
  return file;
}

test('demo3 lands on 档案信息: the tree shows the product lines, a material filters the table', async ({ page }) => {
  await openArchive(page);
  await expect(page.getByText(`共 ${await count()} 条`)).toBeVisible();
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/archive-dashboard.png' });

  const tree = page.getByTestId('material-tree');
  const lines = await sql<{ code: string; name: string; n: string }>(
    `SELECT p.code, p.name, count(m.code) AS n FROM product_line p LEFT JOIN material m ON m.product_line_code = p.code GROUP BY p.code ORDER BY p.sort, p.code`,
  );
  for (const l of lines) await expect(tree.getByText(`${l.name}（${l.n}）`)).toBeVisible();

  const [m] = await sql<{ code: string; name: string; line: string; n: string }>(
    `SELECT m.code, m.name, p.name AS line, (SELECT count(*) FROM standard_file f WHERE f.material_code = m.code) AS n
     FROM material m JOIN product_line p ON p.code = m.product_line_code
     WHERE EXISTS (SELECT 1 FROM standard_file f WHERE f.material_code = m.code) ORDER BY m.code LIMIT 1`,
  );
  await tree
    .locator('.ant-tree-treenode')
    .filter({ hasText: `${m!.line}（` })
    .locator('.ant-tree-switcher')
    .click();
  await tree.getByText(`${m!.code} ${m!.name}`).click();
  await expect(page.getByText(`共 ${m!.n} 条`)).toBeVisible();
  await tableSettled(page);
  await expect(rows(page)).toHaveCount(Math.min(Number(m!.n), 10));
  for (const r of await rows(page).all()) await expect(r).toContainText(m!.code);
  // the picked material is the filter bar's material code too
  await expect(filters(page).getByRole('textbox', { name: '物料编码' })).toHaveValue(m!.code);

  // 搜索物料: the open product line loads again with only the materials matching the keyword
  const [other] = await sql<{ code: string; name: string }>(
    `SELECT code, name FROM material WHERE product_line_code = (SELECT product_line_code FROM material WHERE code = $1) AND code <> $1 ORDER BY code LIMIT 1`,
    [m!.code],
  );
  await expect(tree.getByText(`${other!.code} ${other!.name}`)).toBeVisible();
  await tree.getByLabel('搜索物料').fill(m!.code);
  await tree.getByLabel('搜索物料').press('Enter');
  await expect(tree.getByText(`${other!.code} ${other!.name}`)).toBeHidden();
  await expect(tree.getByText(`${m!.code} ${m!.name}`)).toBeVisible();
  await expect(tree.getByText(`${m!.line}（`)).toBeVisible();

  // a load still on its way when the keyword changes does not reach the new keyword's tree: the
  // keyword is cleared (the line's load without it is held back), then typed again
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const isMaterials = (u: URL) => u.pathname === apiUrl(archivesApi.materials);
  await page.route(isMaterials, async (route) => {
    if (!JSON.parse(route.request().postData() ?? '{}').keyword) await held;
    await route.continue();
  });
  const unfiltered = page.waitForRequest(
    (r) => isMaterials(new URL(r.url())) && !JSON.parse(r.postData() ?? '{}').keyword,
  );
  await tree.getByLabel('搜索物料').fill('');
  await tree.getByLabel('搜索物料').press('Enter');
  await unfiltered;
  await tree.getByLabel('搜索物料').fill(m!.code);
  await tree.getByLabel('搜索物料').press('Enter');
  await expect(tree.getByText(`${m!.code} ${m!.name}`)).toBeVisible();
  const late = page.waitForResponse(
    (r) => isMaterials(new URL(r.url())) && !JSON.parse(r.request().postData() ?? '{}').keyword,
  );
  release();
  await late;
  // the late answer is in; the tree still holds the keyword's material, once, and nothing else
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(tree.getByText(`${other!.code} ${other!.name}`)).toBeHidden();
  await expect(tree.getByText(`${m!.code} ${m!.name}`)).toHaveCount(1);
  await page.unroute(isMaterials);
});

test('加载更多 loads the next hundred materials; a failed load is toasted and can be clicked again', async ({
  page,
}) => {
  // a product line of its own with 101 materials (the demo's lines have a few each), removed after
  const line = { code: 'E2EMORE', name: 'E2E多物料' };
  await sql(`INSERT INTO product_line (code, name, sort) VALUES ($1, $2, 99)`, [line.code, line.name]);
  try {
    await sql(
      `INSERT INTO material (code, name, product_line_code) SELECT 'E2EM' || lpad(n::text, 4, '0'), '测试物料' || n, $1 FROM generate_series(1, 101) n`,
      [line.code],
    );
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await openArchive(page);
    const tree = page.getByTestId('material-tree');
    await tree
      .locator('.ant-tree-treenode')
      .filter({ hasText: `${line.name}（101）` })
      .locator('.ant-tree-switcher')
      .click();
    await expect(tree.getByText('E2EM0001 测试物料1', { exact: true })).toBeVisible();
    const more = tree.getByText('加载更多…');
    // the tree is a virtual list: to its end, where the 加载更多 node is
    const scrollToEnd = () =>
      tree.locator('.ant-tree-list-holder').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await scrollToEnd();

    // the second page's load fails once: the call's toast, no unhandled rejection, the node stays
    const isMaterials = (u: URL) => u.pathname === apiUrl(archivesApi.materials);
    await page.route(isMaterials, (route) => route.abort('connectionrefused'), { times: 1 });
    await more.click();
    await expectToast(page, NETWORK_ERROR_TEXT);
    await expect(more).toBeVisible();

    // clicked again: the 101st material, once, and no 加载更多 left
    await more.click();
    await scrollToEnd();
    await expect(tree.getByText('E2EM0101 测试物料101', { exact: true })).toHaveCount(1);
    await expect(tree.getByText('加载更多…')).toHaveCount(0);
    expect(pageErrors).toEqual([]);
  } finally {
    await sql(`DELETE FROM material WHERE product_line_code = $1`, [line.code]);
    await sql(`DELETE FROM product_line WHERE code = $1`, [line.code]);
  }
});

test('a filter narrows the list and 重置 brings it all back', async ({ page }) => {
  const [code] = await sql<{ standard_code: string }>(
    "SELECT standard_code FROM standard_file GROUP BY standard_code HAVING count(*) FILTER (WHERE status = 'HISTORY') > 0 ORDER BY standard_code LIMIT 1",
  );
  const standardCode = code!.standard_code;
  await openArchive(page);
  await searchStandardCode(page, standardCode);
  await expect(page.getByText(`共 ${await count('standard_code = $1', [standardCode])} 条`)).toBeVisible();
  for (const r of await rows(page).all()) await expect(r).toContainText(standardCode);

  await filters(page).getByRole('combobox', { name: '状态' }).click();
  await page.locator('.ant-select-dropdown').getByText('历史版本', { exact: true }).click();
  await filters(page)
    .getByRole('button', { name: /搜\s*索/ })
    .click();
  const history = await count("standard_code = $1 AND status = 'HISTORY'", [standardCode]);
  await expect(page.getByText(`共 ${history} 条`)).toBeVisible();
  await expect(rows(page)).toHaveCount(history);
  for (const r of await rows(page).all()) await expect(r).toContainText('历史版本');

  await filters(page)
    .getByRole('button', { name: /重\s*置/ })
    .click();
  await expect(page.getByText(`共 ${await count()} 条`)).toBeVisible();
  await expect(filters(page).getByRole('textbox', { name: '标准编号' })).toHaveValue('');
});

test('uploading under an existing standard code publishes a new version; the old one is 历史版本 in 档案历史', async ({
  page,
}) => {
  const [file] = await effectivePdfsOutsideS001();
  const version = `E2E-${Date.now().toString(36).toUpperCase()}`;
  const pdf = await pdfFixture(`${file!.standard_code} ${version}`);
  await openArchive(page);

  await page.getByRole('button', { name: '上传文件' }).click();
  const modal = page.getByRole('dialog', { name: '上传文件' });
  await modal.getByLabel('标准编号').fill(file!.standard_code);
  // an existing code: the form says so and proposes the current version's name and material
  await expect(modal.getByTestId('new-version-hint')).toContainText(`第${file!.version_no + 1}版`);
  await expect(modal.getByLabel('名称')).toHaveValue(file!.name);
  // antd 6 shows a single select's chosen label inside .ant-select-content (v5: .ant-select-selection-item)
  const selected = (label: string) =>
    modal.locator('.ant-form-item').filter({ hasText: label }).locator('.ant-select-content');
  await expect(selected('物料')).toContainText(file!.material_code);
  await expect(selected('保密等级')).toHaveText(SECRET_LEVEL_LABELS[file!.secret_level as SecretLevel]);
  await modal.getByLabel('版本').fill(version);
  await modal.locator('input[type=file]').setInputFiles(pdf);
  await page.screenshot({ path: 'e2e/screenshots/archive-upload.png' });
  await modal
    .getByRole('button', { name: /上\s*传/ })
    .last()
    .click();
  await expectToast(page, '上传成功');
  await expect(modal).toBeHidden();

  const versions = await sql<{ version: string; status: string; version_no: number }>(
    'SELECT version, status, version_no FROM standard_file WHERE standard_code = $1 ORDER BY version_no',
    [file!.standard_code],
  );
  expect(versions.at(-1)).toMatchObject({ version, status: 'EFFECTIVE', version_no: file!.version_no + 1 });
  expect(versions.find((v) => v.version === file!.version)?.status).toBe('HISTORY');

  await searchStandardCode(page, file!.standard_code);
  await expect(rows(page).filter({ hasText: version })).toContainText('生效');
  await expect(rows(page).filter({ hasText: version })).toContainText(`第${file!.version_no + 1}版`);

  await page.goto(PAGES.archivalHistory.path);
  await searchStandardCode(page, file!.standard_code);
  const old = rows(page).filter({ hasText: `第${file!.version_no}版` });
  await expect(old).toContainText('历史版本');
  await expect(rows(page).filter({ hasText: version })).toHaveCount(0);
});

test("a wrong file type is caught before sending; a version the code already has is refused in the server's words", async ({
  page,
}) => {
  const [file] = await effectivePdfsOutsideS001();
  const pdf = await pdfFixture('duplicate-version');
  await openArchive(page);
  await page.getByRole('button', { name: '上传文件' }).click();
  const modal = page.getByRole('dialog', { name: '上传文件' });
  // the client checks the file's type before anything is sent
  const txt = path.join(path.dirname(pdf), 'notes.txt');
  await writeFile(txt, 'not a drawing');
  await modal.locator('input[type=file]').setInputFiles(txt);
  await expect(modal.getByText('只能上传 .pdf、.png、.jpg、.jpeg、.dwg、.dxf 文件')).toBeVisible();
  // a version the code already has: the server refuses with its reason
  const [current] = await sql<{ version: string }>(
    "SELECT version FROM standard_file WHERE standard_code = $1 AND status = 'EFFECTIVE'",
    [file!.standard_code],
  );
  await modal.getByLabel('标准编号').fill(file!.standard_code);
  await expect(modal.getByTestId('new-version-hint')).toBeVisible();
  await modal.getByLabel('版本').fill(current!.version);
  await modal.locator('input[type=file]').setInputFiles(pdf);
  await modal
    .getByRole('button', { name: /上\s*传/ })
    .last()
    .click();
  await expect(modal.getByTestId('upload-refusal')).toContainText(`已有版本 ${current!.version}`);
});

test('作废 asks for a reason in a confirm dialog, then the version is obsolete', async ({ page }) => {
  const file = (await effectivePdfsOutsideS001()).at(-1)!;
  await openArchive(page);
  await searchStandardCode(page, file.standard_code);
  const row = rows(page).filter({ hasText: `第${file.version_no}版` });
  await row.getByRole('button', { name: '作废' }).click();
  const dialog = page.getByRole('dialog', { name: '确认作废该版本？' });
  await expect(dialog).toBeVisible();
  // confirm dialogs are 416 wide (polled: the dialog zooms in)
  await expect.poll(async () => (await dialog.boundingBox())?.width).toBe(416);
  await dialog.getByRole('button', { name: '确认作废' }).click();
  await expect(dialog.getByText('请填写作废原因')).toBeVisible();
  await dialog.getByLabel('作废原因').fill('e2e：结构变更，停止使用');
  await dialog.getByRole('button', { name: '确认作废' }).click();
  await expectToast(page, `已作废 ${file.standard_code}`);
  await expect(row).toContainText('已作废');
  await expect(row.getByRole('button', { name: '作废' })).toHaveCount(0);
  const [db] = await sql<{ status: string; obsolete_reason: string }>(
    'SELECT status, obsolete_reason FROM standard_file WHERE id = $1',
    [file.id],
  );
  expect(db).toEqual({ status: 'OBSOLETE', obsolete_reason: 'e2e：结构变更，停止使用' });
});

test('查看 shows the stamped PDF and the view lands in 图纸查看日志', async ({ page }) => {
  const [file] = await sql<FileRow>(
    "SELECT id, standard_code, name, version, version_no, material_code, secret_level FROM standard_file WHERE status = 'EFFECTIVE' AND file_type = 'pdf' ORDER BY standard_code LIMIT 1",
  );
  await openArchive(page);
  await searchStandardCode(page, file!.standard_code);
  await rows(page)
    .filter({ hasText: `第${file!.version_no}版` })
    .getByRole('button', { name: '查看' })
    .click();
  await expect(page.getByTestId('pdf-pages').locator('canvas').first()).toBeVisible();
  await expect(page.locator('.esm-pdf-page').first().locator('.textLayer')).toContainText('demo3');
  await page.screenshot({ path: 'e2e/screenshots/archive-viewer.png' });
  await page.keyboard.press('Escape');

  await page.goto(PAGES.drawingViewLog.path);
  const bar = page.getByTestId('log-filters');
  await bar.getByRole('textbox', { name: '标准编号' }).fill(file!.standard_code);
  await bar.getByRole('textbox', { name: '用户' }).fill('demo3');
  await bar.getByRole('button', { name: /搜\s*索/ }).click();
  await expect(rows(page).filter({ hasText: 'demo3' }).filter({ hasText: file!.standard_code }).first()).toContainText(
    '成功',
  );
});

test("on a narrow screen a row's 查看 is not covered by the 标准编号 column", async ({ page }) => {
  // beside the tree the table is too narrow for both pinned columns: they would overlap
  await page.setViewportSize({ width: 600, height: 900 });
  await openArchive(page);
  await tableSettled(page);
  await rows(page)
    .filter({ has: page.getByRole('button', { name: '查看', disabled: false }) })
    .first()
    .getByRole('button', { name: '查看' })
    .click();
  await expect(page.getByTestId('viewer-toolbar')).toBeVisible();
});

test('导出Excel downloads the filtered list as .xlsx and says how many rows', async ({ page }) => {
  await openArchive(page);
  await tableSettled(page);
  // the export has the list's filters: as many rows as the list's "共 N 条" (X-Total-Rows)
  const totalText = await page.locator('.ant-pagination-total-text').innerText();
  const listed = Number(/共 (\d+) 条/.exec(totalText)?.[1]);
  expect(listed, totalText).toBeGreaterThan(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^图纸档案信息_\d+\.xlsx$/);
  const bytes = await readFile((await file.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK'); // an .xlsx is a zip
  await expectToast(page, `导出完成，共 ${listed} 条`);
  await expect(page.getByTestId('export-progress')).toHaveCount(0);
});

test('each of the five log pages opens with its table and total', async ({ page }) => {
  const LOGS: [string, string, string][] = [
    ['drawingViewLog', 'VIEW', '图纸查看日志'],
    ['drawingConfirmationLog', 'CONFIRM', '图纸确认日志'],
    ['blueprintDownloadingLog', 'DOWNLOAD', '蓝图下载日志'],
    ['drawingPrintlog', 'PRINT', '图纸打印日志'],
    ['confidentialityAgreement', 'KEEPSECRET', '保密协议记录'],
  ];
  await openArchive(page);
  for (const [route, action, title] of LOGS) {
    await page.goto(`/esm/drawingManagement/${route}`);
    await expect(page.getByTestId('breadcrumb')).toContainText(title);
    const table = page.locator('.ant-table');
    await expect(table.getByRole('columnheader', { name: '时间' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: '结果' })).toBeVisible();
    await expect(
      table.getByRole('columnheader', { name: action === 'KEEPSECRET' ? '保密协议' : '标准编号' }),
    ).toBeVisible();
    const [n] = await sql<{ n: string }>('SELECT count(*) AS n FROM access_log WHERE action = $1', [action]);
    if (Number(n!.n) > 0)
      await expect(
        page.getByText(`共 ${Math.min(Number(n!.n), 10_000)}${Number(n!.n) > 10_000 ? '+' : ''} 条`),
      ).toBeVisible();
    else await expect(page.getByText('没有匹配的结果')).toBeVisible();
    await tableSettled(page);
    if (route === 'drawingViewLog') await page.screenshot({ path: 'e2e/screenshots/archive-view-log.png' });
  }
});
