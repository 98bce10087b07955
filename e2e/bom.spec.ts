/**
 * Two- and three-level BOM, the whole journey: demo2 (S001) downloads the import
 * template, fills it (the test writes the rows into the downloaded file), imports a file with one
 * bad row — sees the row's error, nothing is imported —, fixes it and imports (replacing the demo
 * BOM of 0064000102 after the confirmation says so), browses the tree, edits and deletes a line,
 * reads its vendor list; demo3 opens S001's BOM read-only and finds S001 (and S002) in the
 * where-used search. What the pages must show is read from the database.
 */
import { createRequire } from 'node:module';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type ExcelJSType from 'exceljs';
import { sql } from './db.ts';
import { expectToast, signIn, unfoldMenu, atPage } from './helpers.ts';
import { PAGES } from '../packages/contracts/src/index.ts';

// exceljs is the api's dependency: loaded from there rather than added to the root
const ExcelJS = createRequire(new URL('../apps/api/package.json', import.meta.url))('exceljs') as typeof ExcelJSType;

test.describe.configure({ mode: 'serial' });

const NEW_MATERIAL = '0011000302'; // S001 supplies it; no demo BOM
const REPLACED = '0064000102'; // S001's demo BOM: 3 lines, replaced by the import
const VENDOR = ['青岛恒泰注塑有限公司', '91370212MA3F6P2K4Y', '山东省青岛市', '韩梅', '13969801234'];

const tableSettled = (page: Page) => expect(page.locator('.ant-table-wrapper .ant-spin-spinning')).toHaveCount(0);
const row = (page: Page, text: string) => page.locator('.ant-table-row').filter({ has: page.getByTestId(text) });

/** The downloaded template with these rows written into its first sheet, saved as `name`. */
async function fill(template: string, name: string, rows: (string | number)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(template);
  const sheet = book.getWorksheet('BOM导入')!;
  for (const r of rows) sheet.addRow(r);
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'esm-bom-')), name);
  await book.xlsx.writeFile(file);
  return file;
}

const linesOf = (materialCode: string) =>
  sql<{ component_code: string; quantity: string }>(
    `SELECT component_code, quantity::text FROM bom_line WHERE supplier_code = 'S001' AND material_code = $1 ORDER BY level, sort_no`,
    [materialCode],
  );

test('demo2 downloads the template, imports (a bad file first), browses, edits and deletes, reads its vendors', async ({
  page,
}) => {
  // one journey of many steps: an upper bound, not a wait (each step waits for its state)
  test.setTimeout(240_000);
  expect(await linesOf(NEW_MATERIAL), 'the demo seed: no BOM yet on 0011000302').toHaveLength(0);
  expect(await linesOf(REPLACED), 'the demo seed: 3 lines on 0064000102').toHaveLength(3);

  await unfoldMenu(page);
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  const menu = page.getByTestId('side-menu');
  await menu.getByText('供应商专区', { exact: true }).click();
  await menu.getByText('二三级BOM', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.twoOrThreeLevelsBom));
  await tableSettled(page);
  // the demo BOM, expanded: a material, a level-2 and a level-3 line with its extended quantity
  await expect(row(page, 'bom-material-0064000101')).toContainText('二级 5 · 三级 5 · 次级供应商 5 家');
  await expect(row(page, 'bom-line-GB-DC01-05')).toContainText('2.35 kg');
  await expect(row(page, 'bom-material-0064000103')).toContainText('未维护 BOM');
  await page.screenshot({ path: 'e2e/screenshots/bom-tree.png' });

  // the template
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: '下载模板' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^二三级BOM导入模板_\d{14}\.xlsx$/);
  const template = await download.path();
  await expectToast(page, /已下载：二三级BOM导入模板_/);

  const good: (string | number)[][] = [
    [NEW_MATERIAL, '', 'E2E-FY-01', '风叶轮毂', 'PP+GF30', 2, '个', '是', ...VENDOR],
    [NEW_MATERIAL, 'E2E-FY-01', 'E2E-FY-11', '玻纤增强粒子', 'PP-GF30 黑', 1.5, 'kg', '否', ...VENDOR],
    [NEW_MATERIAL, '', 'E2E-FY-02', '平衡块', '', 1, '个', '否', ...VENDOR],
    [
      REPLACED,
      '',
      'ZJ-NEW-01',
      '一体支架',
      'SPCC t=2.5',
      1,
      '件',
      '是',
      '上海宝钢薄板加工有限公司',
      '91310115MA1H7K3X2A',
      '上海市',
      '钱敏',
      '13916001234',
    ],
  ];
  const bad = good.map((r, i) => (i === 1 ? [...r.slice(0, 5), '一点五', ...r.slice(6)] : r));
  const badFile = await fill(template, 'BOM-有错误.xlsx', bad);
  const goodFile = await fill(template, 'BOM-已修正.xlsx', good);

  // a file with one bad row: its row and column, and nothing imported
  await page.getByRole('button', { name: '导入' }).click();
  const dialog = page.getByRole('dialog', { name: '导入二三级BOM' });
  await dialog.locator('input[type=file]').setInputFiles(badFile);
  await dialog.getByRole('button', { name: '校验文件' }).click();
  const errors = dialog.getByTestId('bom-import-errors');
  await expect(errors).toContainText('导入文件有 1 行共 1 处错误，未导入任何数据');
  const errorRow = errors.locator('.ant-table-row').first();
  await expect(errorRow.locator('td').nth(0)).toHaveText('3');
  await expect(errorRow.locator('td').nth(1)).toHaveText('单位用量');
  await expect(errorRow.locator('td').nth(2)).toHaveText('单位用量须为正数，最多 4 位小数');
  await page.screenshot({ path: 'e2e/screenshots/bom-import-errors.png' });
  expect(await linesOf(NEW_MATERIAL)).toHaveLength(0);

  // fixed: checked, the confirmation says what is replaced, then imported
  await dialog.locator('input[type=file]').setInputFiles(goodFile);
  await dialog.getByRole('button', { name: '校验文件' }).click();
  const confirm = dialog.getByTestId('bom-import-confirm');
  await expect(confirm).toContainText('将替换 1 个物料的 BOM：删除现有 3 行，导入 4 行');
  await expect(confirm.locator('.ant-table-row').filter({ hasText: REPLACED })).toContainText('3（将被替换）');
  await dialog.getByRole('button', { name: '确认导入' }).click();
  await expectToast(page, '已导入 4 行');
  await expect(dialog).toBeHidden();
  expect((await linesOf(NEW_MATERIAL)).map((l) => l.component_code)).toEqual(['E2E-FY-01', 'E2E-FY-02', 'E2E-FY-11']);
  expect((await linesOf(REPLACED)).map((l) => l.component_code)).toEqual(['ZJ-NEW-01']);

  // the tree: search a component; level 3 shows its quantity per level-1 unit (2 × 1.5)
  const filters = page.getByTestId('bom-filters');
  await filters.getByRole('textbox', { name: '子件' }).fill('E2E-FY-11');
  await filters.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  await expect(page.locator('.ant-table-row:visible')).toHaveCount(3);
  await expect(row(page, 'bom-line-E2E-FY-11')).toContainText('3 kg');
  await filters.getByRole('button', { name: /重\s*置/ }).click();
  await tableSettled(page);

  // collapse and expand all
  await page.getByRole('button', { name: '全部折叠' }).click();
  await expect(row(page, 'bom-line-E2E-FY-11')).toHaveCount(0);
  await expect(row(page, 'bom-material-0011000302')).toBeVisible();
  await page.getByRole('button', { name: '全部展开' }).click();
  await expect(row(page, 'bom-line-E2E-FY-11')).toBeVisible();

  // edit a line in the form
  await row(page, 'bom-line-E2E-FY-11').getByRole('button', { name: '编辑' }).click();
  const form = page.getByRole('dialog', { name: /编辑三级子件 E2E-FY-11/ });
  await expect(form.getByLabel('联系电话')).toHaveAttribute('placeholder', '139****1234（不改请留空）');
  await form.getByLabel('单位用量').fill('abc');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expect(form).toContainText('单位用量须为正数，最多 4 位小数');
  await form.getByLabel('单位用量').fill('2');
  await form.getByRole('button', { name: /保\s*存/ }).click();
  await expectToast(page, '已保存');
  await expect(form).toBeHidden();
  await expect(row(page, 'bom-line-E2E-FY-11')).toContainText('4 kg');
  const [edited] = await sql<{ quantity: string; vendor_mobile: string }>(
    `SELECT quantity::text, vendor_mobile FROM bom_line WHERE supplier_code = 'S001' AND component_code = 'E2E-FY-11'`,
  );
  expect(edited).toEqual({ quantity: '2.0000', vendor_mobile: '13969801234' });

  // delete a line, after the confirmation
  await row(page, 'bom-line-E2E-FY-02').getByRole('button', { name: '删除' }).click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expectToast(page, '已删除');
  await expect(row(page, 'bom-line-E2E-FY-02')).toHaveCount(0);
  expect((await linesOf(NEW_MATERIAL)).map((l) => l.component_code)).toEqual(['E2E-FY-01', 'E2E-FY-11']);

  await page.setViewportSize({ width: 600, height: 800 });
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/bom-tree-narrow.png' });
  await page.setViewportSize({ width: 1366, height: 800 });

  // the vendor list: the new vendor with what it supplies; filter; export
  await page.goto(PAGES.twoOrThreeLevelsSupplier.path);
  await tableSettled(page);
  const vendor = row(page, `bom-vendor-${VENDOR[1]}`);
  await expect(vendor).toContainText('E2E-FY-01 风叶轮毂');
  await expect(vendor).toContainText('139****1234');
  await expect(page.locator('.ant-table-wrapper')).not.toContainText('13969801234');
  await page.screenshot({ path: 'e2e/screenshots/bom-vendors.png' });
  const vendorFilters = page.getByTestId('bom-vendor-filters');
  await vendorFilters.getByRole('textbox', { name: '次级供应商' }).fill('金田');
  await vendorFilters.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  await expect(page.locator('.ant-table-row:visible')).toHaveCount(1);
  await expect(page.locator('.ant-table-row:visible')).toContainText('宁波金田塑胶制品有限公司');
  const exporting = page.waitForEvent('download');
  await page.getByRole('button', { name: '导出Excel' }).click();
  expect((await exporting).suggestedFilename()).toMatch(/^二三级供应商_\d{14}\.xlsx$/);
});

test('demo2 switches its BOM to 平铺, filters level 3, and reveals a vendor’s mobile', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo2');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await page.goto(PAGES.twoOrThreeLevelsBom.path);
  await tableSettled(page);
  await expect(row(page, 'bom-material-0064000101')).toBeVisible();

  // 平铺: a page of lines, level 3 only, none of another supplier's
  await page.locator('.ant-segmented').getByText('平铺', { exact: true }).click();
  await tableSettled(page);
  const [{ lines, level3 }] = (await sql<{ lines: string; level3: string }>(
    `SELECT count(*)::text AS lines, count(*) FILTER (WHERE level = 3)::text AS level3 FROM bom_line WHERE supplier_code = 'S001'`,
  )) as [{ lines: string; level3: string }];
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(`共 ${lines} 条`);
  await expect(page.getByTestId('bom-flat-GB-DC01-05')).toBeVisible();
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/bom-flat.png' });
  const filters = page.getByTestId('bom-filters');
  await filters.getByRole('combobox').click();
  await page.locator('.ant-select-dropdown:visible').getByText('三级', { exact: true }).click();
  await filters.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  await expect(page.locator('.ant-pagination-total-text')).toHaveText(`共 ${level3} 条`);
  const rows = page.locator('.ant-table-row:visible');
  await expect(rows).toHaveCount(Math.min(Number(level3), 10));
  for (const r of await rows.all()) await expect(r.locator('td').first()).toHaveText('三级');
  await expect(row(page, 'bom-flat-E2E-FY-11')).toContainText('4 kg');
  const others = await sql<{ component_code: string }>(
    `SELECT component_code FROM bom_line WHERE supplier_code <> 'S001' AND level = 3 AND component_code NOT IN (SELECT component_code FROM bom_line WHERE supplier_code = 'S001')`,
  );
  for (const o of others.slice(0, 3)) await expect(page.getByTestId(`bom-flat-${o.component_code}`)).toHaveCount(0);
  // sort by extended quantity, largest first
  await page.locator('.ant-table-thead th').filter({ hasText: '每一级用量' }).click();
  await tableSettled(page);
  await page.locator('.ant-table-thead th').filter({ hasText: '每一级用量' }).click();
  await tableSettled(page);
  const [largest] = await sql<{ component_code: string }>(
    `SELECT l.component_code FROM bom_line l JOIN bom_line p ON p.id = l.parent_id WHERE l.supplier_code = 'S001' AND l.level = 3 ORDER BY l.quantity * p.quantity DESC, l.id DESC LIMIT 1`,
  );
  await expect(rows.first().getByTestId(`bom-flat-${largest!.component_code}`)).toBeVisible();
  await page.mouse.move(0, 0); // the sorted header's tooltip out of the picture
  await page.setViewportSize({ width: 600, height: 800 });
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/bom-flat-narrow.png' });
  await page.setViewportSize({ width: 1366, height: 800 });

  // the vendor list: the eye reveals the full number, and the look is logged
  const before = await sql<{ n: string }>(
    `SELECT count(*)::text AS n FROM phone_view_log WHERE contact_kind = 'BOM_VENDOR' AND viewer_account = 'demo2'`,
  );
  await page.goto(PAGES.twoOrThreeLevelsSupplier.path);
  await tableSettled(page);
  const vendor = row(page, `bom-vendor-${VENDOR[1]}`);
  await expect(vendor).toContainText('139****1234');
  await vendor.getByRole('button', { name: /查看.*的完整手机号/ }).click();
  await expect(vendor.getByTestId('mobile')).toHaveText('13969801234');
  const after = await sql<{ n: string }>(
    `SELECT count(*)::text AS n FROM phone_view_log WHERE contact_kind = 'BOM_VENDOR' AND viewer_account = 'demo2'`,
  );
  expect(Number(after[0]!.n)).toBe(Number(before[0]!.n) + 1);
  await page.screenshot({ path: 'e2e/screenshots/bom-vendors-revealed.png' });
  await page.setViewportSize({ width: 600, height: 800 });
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/bom-vendors-narrow.png' });
});

test('demo3 reads S001’s BOM and finds S001 in the where-used search', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo3');
  const menu = page.getByTestId('side-menu');
  await menu.getByText('图纸管理', { exact: true }).click();
  await menu.getByText('供应商BOM追溯', { exact: true }).click();
  await expect(page).toHaveURL(atPage(PAGES.supplierBomTrace));
  await tableSettled(page);
  const [s001] = await sql<{ lines: string }>(
    `SELECT count(*)::text AS lines FROM bom_line WHERE supplier_code = 'S001'`,
  );
  const supplier = page.locator('.ant-table-row').filter({ hasText: 'S001' });
  await expect(supplier.locator('td').nth(3)).toHaveText(s001!.lines);
  await tableSettled(page);
  await page.screenshot({ path: 'e2e/screenshots/bom-trace-suppliers.png' });

  // one supplier's BOM, read only
  await supplier.getByRole('button', { name: '查看BOM' }).click();
  await expect(page).toHaveURL(/supplierCode=S001/);
  await expect(page.getByTestId('bom-trace-supplier')).toContainText('S001 青岛海达精密机械有限公司');
  await tableSettled(page);
  await expect(row(page, 'bom-line-E2E-FY-11')).toContainText('4 kg');
  await expect(page.getByRole('button', { name: '编辑' })).toHaveCount(0);
  // its flat view, and a vendor's mobile revealed on the manufacturer's side
  await page.locator('.ant-segmented').getByText('平铺', { exact: true }).click();
  const flatLine = row(page, 'bom-flat-E2E-FY-11');
  await expect(flatLine).toContainText('4 kg');
  await flatLine.getByRole('button', { name: /查看.*的完整手机号/ }).click();
  await expect(flatLine.getByTestId('mobile')).toHaveText('13969801234');
  const [seen] = await sql<{ n: string }>(
    `SELECT count(*)::text AS n FROM phone_view_log WHERE contact_kind = 'BOM_VENDOR' AND viewer_account = 'demo3'`,
  );
  expect(seen!.n).toBe('1');
  await page.getByRole('tab', { name: '次级供应商', exact: true }).click();
  await expect(row(page, `bom-vendor-${VENDOR[1]}`)).toBeVisible();

  // where-used: a vendor used by two first-tier suppliers
  await page.getByRole('tab', { name: /反查/ }).click();
  const where = page.getByTestId('bom-where-filters');
  await where.getByRole('textbox', { name: '次级供应商' }).fill('金田塑胶');
  await where.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  const rows = page.locator('.ant-table-row:visible');
  await expect(rows.filter({ hasText: 'S001' }).first()).toContainText('0064000101');
  await expect(rows.filter({ hasText: 'S002' }).first()).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/bom-where-used.png' });
  // and a component demo2 just imported
  await where.getByRole('textbox', { name: '次级供应商' }).fill('');
  await where.getByRole('textbox', { name: '子件' }).fill('E2E-FY-11');
  await where.getByRole('button', { name: /搜\s*索/ }).click();
  await tableSettled(page);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('S001');
  await expect(rows.first()).toContainText(NEW_MATERIAL);
  // its supplier link opens that supplier's BOM
  await rows.first().getByRole('button', { name: 'S001' }).click();
  await expect(page).toHaveURL(/supplierCode=S001/);
  await expect(page.getByTestId('bom-trace-supplier')).toBeVisible();
});
