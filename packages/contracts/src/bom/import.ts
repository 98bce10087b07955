/** Importing a BOM from Excel: the file's limits, its columns in the template's order, and the answer. */
import { z } from 'zod';

/** An import file larger than this is refused (413) before it is read. */
export const BOM_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const BOM_IMPORT_MAX_MB = BOM_IMPORT_MAX_BYTES / 1024 / 1024;
/** Data rows an import may hold. */
export const BOM_IMPORT_MAX_ROWS = 50_000;
/** A refused import lists at most this many errors (the message says how many there are). */
export const BOM_IMPORT_ERRORS_SHOWN = 500;

/**
 * The import file's columns, in the template's order: the header each is found by, its field,
 * and the template's column width. 一级物料编码 and 上级编码 place the line; 上级编码 empty (or the
 * material's code) makes a level-2 line, a level-2 component's code a level-3 line.
 */
export const BOM_COLUMNS = [
  { key: 'materialCode', header: '一级物料编码', width: 16, required: true, note: '本供应商供货的物料编码' },
  {
    key: 'parentCode',
    header: '上级编码',
    width: 16,
    required: false,
    note: '空或一级物料编码：二级子件；填二级子件编码：三级子件',
  },
  { key: 'componentCode', header: '子件编码', width: 16, required: true, note: '同一上级下不能重复' },
  { key: 'componentName', header: '子件名称', width: 20, required: true, note: '' },
  { key: 'spec', header: '规格型号', width: 18, required: false, note: '' },
  { key: 'quantity', header: '单位用量', width: 10, required: true, note: '每个上级所用数量，正数，最多 4 位小数' },
  { key: 'unit', header: '单位', width: 8, required: true, note: '如：个、件、kg、m' },
  { key: 'hasDrawing', header: '是否有图纸', width: 10, required: false, note: '是 / 否，空为否' },
  { key: 'vendorName', header: '供应商名称', width: 28, required: true, note: '子件的供应商（次级供应商）' },
  { key: 'vendorCreditCode', header: '统一社会信用代码', width: 22, required: true, note: '18 位' },
  { key: 'vendorRegion', header: '所在地区', width: 14, required: false, note: '如：浙江省宁波市' },
  { key: 'vendorContact', header: '联系人', width: 10, required: false, note: '' },
  { key: 'vendorMobile', header: '联系电话', width: 16, required: false, note: '' },
] as const;
export type BomColumnKey = (typeof BOM_COLUMNS)[number]['key'];
export const BOM_COLUMN_HEADERS = Object.fromEntries(BOM_COLUMNS.map((c) => [c.key, c.header])) as Record<
  BomColumnKey,
  string
>;

/** The import's answer: what the file holds per material, and whether it was written. */
export const ZBomImportResult = z.object({
  applied: z.boolean(),
  lines: z.number().int(),
  materials: z.array(
    z.object({ code: z.string(), name: z.string(), existing: z.number().int(), incoming: z.number().int() }),
  ),
});
export type BomImportResult = z.infer<typeof ZBomImportResult>;
/** The multipart fields before the file: `confirm` true writes, otherwise the file is only checked. */
export const ZBomImportFieldsSchema = z.object({
  confirm: z.enum(['true', 'false'], { error: 'confirm 只能是 true 或 false' }).default('false'),
});
