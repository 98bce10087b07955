/**
 * The BOM's workbooks: the import template (Chinese headers, a sheet of instructions and the
 * supplier's materials), reading an import file into rows, and the two exports. Written with the
 * streaming writer the other exports use (modules/empower/excel.ts).
 */
import {
  BOM_COLUMNS,
  BOM_IMPORT_MAX_ROWS,
  BOM_LEVEL_LABELS,
  type BomColumnKey,
  type BomLine,
  type BomMaterialOption,
  type BomVendorRow,
} from '@esm/contracts';
import { cstDateTime } from '../../lib/dates.ts';
import { badRequest } from '../../plugins/errors.ts';
import { checkZip } from '../../lib/zip-guard.ts';
import type { Sheet } from '../../lib/workbook.ts';
import type { SheetRow } from './rules.ts';

export const TEMPLATE_SHEET = 'BOM导入';

const headerColumns = BOM_COLUMNS.map((c) => ({ header: c.header, width: c.width }));

export function templateSheets(materials: BomMaterialOption[]): Sheet[] {
  return [
    { name: TEMPLATE_SHEET, columns: headerColumns, rows: [[]] },
    {
      name: '填写说明',
      columns: [
        { header: '列名', width: 18 },
        { header: '必填', width: 8 },
        { header: '说明', width: 60 },
      ],
      rows: [
        [
          ...BOM_COLUMNS.map((c) => [c.header, c.required ? '是' : '否', c.note]),
          [],
          [
            '规则',
            '',
            '第一个工作表“BOM导入”从第 2 行起每行一个子件；BOM 最多三级，不能循环引用；同一上级下子件编码不能重复',
          ],
          ['导入', '', '整个文件先校验，全部正确才导入；文件中每个一级物料现有的 BOM 会被整体替换'],
          ['示例', '', '一级物料 0011000101 下二级子件 A100（上级编码留空），A100 下三级子件 A110（上级编码填 A100）'],
        ],
      ],
    },
    {
      name: '供货物料',
      columns: [
        { header: '物料编码', width: 16 },
        { header: '物料名称', width: 24 },
        { header: '规格', width: 20 },
        { header: '现有BOM行数', width: 12 },
      ],
      rows: [materials.map((m) => [m.code, m.name, m.spec ?? '', m.lineCount])],
    },
  ];
}

/** A cell's text as the user sees it (numbers, rich text and formulas' results included). */
function cellText(cell: { text?: unknown; value?: unknown }): string {
  const v = cell.value as { result?: unknown } | null | undefined;
  if (v && typeof v === 'object' && 'result' in v) return String(v.result ?? '').trim();
  // a file without its shared strings gives the string's number here (exceljs), not a text
  return String(cell.text ?? '').trim();
}

const tooMany = () =>
  badRequest(`导入文件最多 ${BOM_IMPORT_MAX_ROWS} 行数据，请分批导入`, [
    { field: 'file', message: `导入文件最多 ${BOM_IMPORT_MAX_ROWS} 行数据` },
  ]);
const unreadable = () =>
  badRequest('无法读取该文件，请使用下载的模板（.xlsx）填写后导入', [
    { field: 'file', message: '不是有效的 .xlsx 文件' },
  ]);

/**
 * What an import file may unpack to: ~20 MB is a full template of BOM_IMPORT_MAX_ROWS rows, so
 * 64 MB leaves room for wide text and keeps a crafted file from filling the api's memory.
 */
export const IMPORT_ZIP_LIMITS = { maxUnpacked: 64 * 1024 * 1024, maxEntries: 200 } as const;
/** Merged cells a sheet may hold: exceljs makes an object per merged cell when it loads the workbook. */
const MAX_MERGED_CELLS = 100_000;

/** A column's number from its letters (A → 1, ZZ → 702). */
const columnNumber = (letters: string) => [...letters].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0);

/** The cells the sheet XML's merged ranges cover, and its row elements (counted on the raw XML). */
function sheetShape(xml: string): { merged: number; rows: number } {
  let merged = 0;
  for (const m of xml.matchAll(/<mergeCell\s+ref="([A-Z]{1,3})(\d+):([A-Z]{1,3})(\d+)"/g)) {
    merged += (Math.abs(columnNumber(m[3]!) - columnNumber(m[1]!)) + 1) * (Math.abs(Number(m[4]) - Number(m[2])) + 1);
  }
  return { merged, rows: xml.split('<row').length - 1 };
}

/**
 * The rows of the file's first sheet, by its header row: unknown columns are ignored, empty rows
 * skipped. Refuses what is not an .xlsx, and a file without the required headers.
 *
 * exceljs holds the whole workbook once loaded, so what it would expand is measured first, on the
 * unpacked parts (lib/zip-guard.ts): at most 64 MB unpacked, no sheet with more than twice the row
 * limit in row elements or with merged ranges over MAX_MERGED_CELLS cells. A 7.7 KB file with one
 * merged range A1:ZZ99999 took the api down before any limit was checked. (exceljs' streaming
 * reader, tried first, failed now and then on a valid file under load: not taken.)
 */
export async function readImportRows(bytes: Buffer): Promise<{ headers: string[]; rows: SheetRow[] }> {
  let merged = 0;
  let rowElements = 0;
  const zip = checkZip(bytes, IMPORT_ZIP_LIMITS, (name, content) => {
    if (!/^xl\/worksheets\/sheet\d+\.xml$/.test(name)) return;
    const shape = sheetShape(content.toString('utf8'));
    merged = Math.max(merged, shape.merged);
    rowElements = Math.max(rowElements, shape.rows);
  });
  if (!zip.ok && zip.reason !== 'not-zip') {
    throw badRequest('文件解压后过大，请使用下载的模板（.xlsx）填写，超过 ' + BOM_IMPORT_MAX_ROWS + ' 行请分批导入', [
      { field: 'file', message: '文件解压后过大' },
    ]);
  }
  if (!zip.ok) throw unreadable();
  if (rowElements > 2 * BOM_IMPORT_MAX_ROWS) throw tooMany();
  if (merged > MAX_MERGED_CELLS)
    throw badRequest('文件中合并的单元格过多，请使用下载的模板（.xlsx）填写后导入', [
      { field: 'file', message: '合并的单元格过多' },
    ]);
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw unreadable();
  }
  const sheet = book.getWorksheet(TEMPLATE_SHEET) ?? book.worksheets[0];
  if (!sheet) throw badRequest('文件中没有工作表', [{ field: 'file', message: '文件中没有工作表' }]);
  const headers: string[] = [];
  const keyAt = new Map<number, BomColumnKey>();
  sheet.getRow(1).eachCell({ includeEmpty: false }, (cell, col) => {
    const text = cellText(cell);
    headers.push(text);
    const column = BOM_COLUMNS.find((c) => c.header === text);
    if (column && ![...keyAt.values()].includes(column.key)) keyAt.set(col, column.key);
  });
  if (sheet.actualRowCount - 1 > BOM_IMPORT_MAX_ROWS) throw tooMany();
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNo) => {
    if (rowNo === 1) return;
    const cells: SheetRow['cells'] = {};
    let any = false;
    for (const [col, key] of keyAt) {
      const text = cellText(row.getCell(col));
      if (text) any = true;
      cells[key] = text;
    }
    if (any) rows.push({ rowNo, cells });
  });
  if (rows.length > BOM_IMPORT_MAX_ROWS) throw tooMany();
  return { headers, rows };
}

// ---- exports ----------------------------------------------------------------------------------------

type Cell = string | number;

/** The template's columns (re-importable once the masked mobiles are filled in), then level and extended quantity. */
export function linesSheet(lines: (BomLine & { materialName: string })[]): Sheet {
  const value: Record<BomColumnKey, (l: BomLine) => Cell> = {
    materialCode: (l) => l.materialCode,
    parentCode: (l) => (l.level === 2 ? '' : l.parentCode),
    componentCode: (l) => l.componentCode,
    componentName: (l) => l.componentName,
    spec: (l) => l.spec ?? '',
    quantity: (l) => l.quantity,
    unit: (l) => l.unit,
    hasDrawing: (l) => (l.hasDrawing ? '是' : '否'),
    vendorName: (l) => l.vendorName,
    vendorCreditCode: (l) => l.vendorCreditCode,
    vendorRegion: (l) => l.vendorRegion ?? '',
    vendorContact: (l) => l.vendorContact ?? '',
    vendorMobile: (l) => l.vendorMobile ?? '',
  };
  return {
    name: 'BOM',
    columns: [
      ...headerColumns,
      { header: '层级', width: 8 },
      { header: '每一级物料用量', width: 14 },
      { header: '一级物料名称', width: 20 },
      { header: '更新人', width: 12 },
      { header: '更新时间', width: 20 },
    ],
    rows: [
      lines.map((l) => [
        ...BOM_COLUMNS.map((c) => value[c.key](l)),
        BOM_LEVEL_LABELS[l.level as 2 | 3],
        l.extendedQuantity,
        l.materialName,
        l.updatedBy,
        cstDateTime(new Date(l.updatedAt)),
      ]),
    ],
  };
}

export function vendorsSheet(rows: BomVendorRow[]): Sheet {
  return {
    name: '二三级供应商',
    columns: [
      { header: '供应商名称', width: 30 },
      { header: '统一社会信用代码', width: 22 },
      { header: '所在地区', width: 14 },
      { header: '联系人', width: 10 },
      { header: '联系电话', width: 14 },
      { header: 'BOM行数', width: 10 },
      { header: '子件数', width: 8 },
      { header: '涉及物料数', width: 10 },
      { header: '所供子件', width: 50 },
      { header: '涉及一级物料', width: 40 },
    ],
    rows: [
      rows.map((r) => [
        r.name,
        r.creditCode,
        r.region ?? '',
        r.contact ?? '',
        r.mobile ?? '',
        r.lineCount,
        r.componentCount,
        r.materialCount,
        r.components.map((c) => `${c.code} ${c.name}`).join('、'),
        r.materials.map((m) => `${m.code} ${m.name}`).join('、'),
      ]),
    ],
  };
}
