/**
 * Two- and three-level BOM and sub-tier suppliers (the legacy portal's pages twoOrThreeLevelsBom /
 * twoOrThreeLevelsSupplier, its calls bomlevel/searchBomLevelList, searchBomVenderList). A first-tier
 * supplier declares, for each material it supplies (level 1), the components it is made of
 * (level 2) and their components (level 3), and which sub-tier vendor supplies each. The
 * manufacturer reads any supplier's BOM and searches where a vendor or a component is used.
 * The rules (levels, cycles, one code per parent, only supplied materials) live in the api's bom
 * module; the line's fields are declared once here, for the form, the import and the server.
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zId, zOptionalEnum, zOptionalText, zText } from './fields.ts';
import { SORT_ORDERS, ZPageRequest } from './paging.ts';

// ---- limits --------------------------------------------------------------------------------------

/** At most three levels: the supplied material (1), its components (2), theirs (3). */
export const BOM_MAX_LEVEL = 3;
export const BOM_LEVELS = ['2', '3'] as const;
export const BOM_LEVEL_LABELS = { 1: '一级', 2: '二级', 3: '三级' } as const;
/** An import file larger than this is refused (413) before it is read. */
export const BOM_IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const BOM_IMPORT_MAX_MB = BOM_IMPORT_MAX_BYTES / 1024 / 1024;
/** Data rows an import may hold. */
export const BOM_IMPORT_MAX_ROWS = 50_000;
/** A refused import lists at most this many errors (the message says how many there are). */
export const BOM_IMPORT_ERRORS_SHOWN = 500;
/** Where the manufacturer reads a supplier's BOM and searches where-used (not in the legacy portal). */
import { BOM_TRACE_PAGE } from './page-paths.ts';
import { PAGES } from './pages.ts';
export { BOM_TRACE_PAGE };

// ---- a line's fields -------------------------------------------------------------------------------

/** 统一社会信用代码: 18 characters, digits and capitals without I, O, S, V, Z. */
export const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;
/** A quantity: positive, at most 10 integer digits and 4 decimals. */
const QUANTITY = /^\d{1,10}(\.\d{1,4})?$/;
const PHONE = /^[0-9+\- ]{6,20}$/;

/** A decimal as text (as typed, as read from a cell): no binary rounding on the way to numeric(14,4). */
const zQuantity = z
  .string({ error: '请输入单位用量（文本形式的数字，如 "2.5"）' })
  .trim()
  .refine((s) => s !== '', { message: '请输入单位用量', abort: true })
  .refine((s) => QUANTITY.test(s), { message: '单位用量须为正数，最多 4 位小数', abort: true })
  .transform(Number)
  .refine((n) => n > 0, '单位用量须大于 0');

const zMobile = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
  z
    .string()
    .refine((s) => !s.includes('*'), { message: '联系电话不能是脱敏号码，请填写完整号码', abort: true })
    .refine((s) => PHONE.test(s), '联系电话格式不正确（6–20 位数字）')
    .optional(),
);

/** The fields of a line, as the form sends them and as an import row is checked. */
export const bomLineFields = {
  componentCode: zText('子件编码', 40),
  componentName: zText('子件名称', 200),
  spec: zOptionalText(200),
  quantity: zQuantity,
  unit: zText('单位', 16),
  hasDrawing: z.boolean({ error: '请选择是否有图纸' }),
  vendorName: zText('供应商名称', 200),
  vendorCreditCode: zText('统一社会信用代码', 18)
    .refine((s) => CREDIT_CODE.test(s.toUpperCase()), '统一社会信用代码应为 18 位数字或大写字母')
    .transform((s) => s.toUpperCase()),
  vendorRegion: zOptionalText(100),
  vendorContact: zOptionalText(50),
  vendorMobile: zMobile,
};
export const ZBomLineFieldsSchema = z.object(bomLineFields);
export type BomLineFields = z.input<typeof ZBomLineFieldsSchema>;

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

// ---- rows ------------------------------------------------------------------------------------------

const lineShape = {
  id: z.number().int(),
  level: z.number().int(),
  parentId: z.number().int().nullable(),
  materialCode: z.string(),
  parentCode: z.string(),
  componentCode: z.string(),
  componentName: z.string(),
  spec: z.string().nullable(),
  /** Per one unit of the parent. */
  quantity: z.number(),
  /** Per one unit of the level-1 material (level 2: the quantity itself). */
  extendedQuantity: z.number(),
  unit: z.string(),
  hasDrawing: z.boolean(),
  vendorName: z.string(),
  vendorCreditCode: z.string(),
  vendorRegion: z.string().nullable(),
  /** Governed with 联系人 on the manufacturer's trace page (BOM_VENDOR_COLUMNS): absent when hidden, masked when masked. */
  vendorContact: z.string().nullable().optional(),
  /** Masked (138****5678): never answered in full. */
  vendorMobile: z.string().nullable(),
  updatedBy: z.string(),
  updatedAt: z.string(),
  /** The line matches the filters (its ancestors are shown around it, unmarked). */
  matched: z.boolean(),
};
export const ZBomLevel3 = z.object(lineShape);
export const ZBomLevel2 = z.object({ ...lineShape, children: z.array(ZBomLevel3).optional() });
export type BomLine = z.infer<typeof ZBomLevel3>;
export type BomLevel2 = z.infer<typeof ZBomLevel2>;

/** A level-1 material of the supplier with its BOM (the lines the filters keep). */
export const ZBomMaterialNode = z.object({
  materialCode: z.string(),
  materialName: z.string(),
  materialSpec: z.string().nullable(),
  /** The supplier supplies it now (a BOM may outlive the supply). */
  supplied: z.boolean(),
  /** All its lines, whatever the filters. */
  lineCount: z.number().int(),
  level2Count: z.number().int(),
  level3Count: z.number().int(),
  vendorCount: z.number().int(),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
  /** Absent when no line is shown (a tree table shows no expander then). */
  children: z.array(ZBomLevel2).optional(),
});
export type BomMaterialNode = z.infer<typeof ZBomMaterialNode>;

/** A line of the flat view (平铺): a line of the tree with the material's name and its parent's. */
export const ZBomFlatLine = z.object({
  ...lineShape,
  materialName: z.string(),
  /** The parent's name: the level-1 material's for level 2, the level-2 component's for level 3. */
  parentName: z.string(),
});
export type BomFlatLine = z.infer<typeof ZBomFlatLine>;
/** A row of searchBomLevelList: a material with its tree (view tree), or a line (view flat). */
export const ZBomLevelListRow = z.union([ZBomMaterialNode, ZBomFlatLine]);

export const ZBomVendorRow = z.object({
  /** The line whose contact and mobile are shown (its latest): the reveal names it (kind BOM_VENDOR). */
  lineId: z.number().int(),
  creditCode: z.string(),
  name: z.string(),
  region: z.string().nullable(),
  /** Governed on the manufacturer's trace page (BOM_VENDOR_COLUMNS): absent when hidden, masked when masked. */
  contact: z.string().nullable().optional(),
  mobile: z.string().nullable(),
  lineCount: z.number().int(),
  componentCount: z.number().int(),
  materialCount: z.number().int(),
  /** The components it supplies (up to 50), with the level-1 material each goes into. */
  components: z.array(
    z.object({ code: z.string(), name: z.string(), level: z.number().int(), materialCode: z.string() }),
  ),
  materials: z.array(z.object({ code: z.string(), name: z.string() })),
});
export type BomVendorRow = z.infer<typeof ZBomVendorRow>;
/** The vendor rows' governed columns on the manufacturer's trace page. */
export const BOM_VENDOR_COLUMNS = governedColumns(PAGES.supplierBomTrace, ['contact'], undefined, undefined, {
  // the BOM tab of the same page shows each line's vendor contact, in the tree (levels 2 and 3) and flat
  contact: ['vendorContact', 'children.vendorContact', 'children.children.vendorContact'],
});

export const ZBomMaterialOption = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string().nullable(),
  lineCount: z.number().int(),
});
export type BomMaterialOption = z.infer<typeof ZBomMaterialOption>;

// ---- requests --------------------------------------------------------------------------------------

/** searchBomLevelList answers the tree (by level-1 material) or the lines flat (平铺). */
export const BOM_VIEW_LABELS = { tree: '树形', flat: '平铺' } as const;
export type BomView = keyof typeof BOM_VIEW_LABELS;
export const BOM_VIEWS = Object.keys(BOM_VIEW_LABELS) as [BomView, ...BomView[]];
const zView = zOptionalEnum(BOM_VIEWS, '视图只能是 tree（树形）或 flat（平铺）');

const treeFilters = {
  materialCode: zOptionalText(40),
  /** Component code or name contains. */
  component: zOptionalText(100),
  /** Vendor name or credit code contains. */
  vendor: zOptionalText(100),
  level: zOptionalEnum(BOM_LEVELS, '层级只能是 2 或 3'),
};
const zSupplierCode = zText('供应商', 32, { verb: '请选择' });

/** The tree pages by material; the flat view sorts its lines by any of these. */
export const BOM_TREE_SORT_FIELDS = ['materialCode'] as const;
export const BOM_FLAT_SORT_FIELDS = [
  'materialCode',
  'level',
  'componentCode',
  'componentName',
  'quantity',
  'extendedQuantity',
  'vendorName',
  'updatedAt',
] as const;
const treeSortOnly = {
  message: `树形视图只能按一级物料编码排序（平铺视图可按：${BOM_FLAT_SORT_FIELDS.join('、')}）`,
  path: ['sortField'],
};
const sortFitsView = (v: { view?: BomView; sortField?: string }) =>
  v.view === 'flat' || !v.sortField || (BOM_TREE_SORT_FIELDS as readonly string[]).includes(v.sortField);
export const ZBomTreeRequestSchema = ZPageRequest(BOM_FLAT_SORT_FIELDS, { ...treeFilters, view: zView }).refine(
  sortFitsView,
  treeSortOnly,
);
export type BomTreeRequest = z.input<typeof ZBomTreeRequestSchema>;
export const ZHaierBomTreeRequestSchema = ZPageRequest(BOM_FLAT_SORT_FIELDS, {
  ...treeFilters,
  view: zView,
  supplierCode: zSupplierCode,
}).refine(sortFitsView, treeSortOnly);

export const BOM_VENDOR_SORT_FIELDS = ['name', 'creditCode', 'lineCount', 'componentCount', 'materialCount'] as const;
const vendorFilters = {
  /** Vendor name or credit code contains. */
  keyword: zOptionalText(100),
  region: zOptionalText(100),
  /** Supplies a component whose code or name contains this. */
  component: zOptionalText(100),
};
export const ZBomVendorRequestSchema = ZPageRequest(BOM_VENDOR_SORT_FIELDS, vendorFilters);
export type BomVendorRequest = z.input<typeof ZBomVendorRequestSchema>;
export const ZHaierBomVendorRequestSchema = ZPageRequest(BOM_VENDOR_SORT_FIELDS, {
  ...vendorFilters,
  supplierCode: zSupplierCode,
});

/**
 * A line exports with the view's filters (every page): tree, the lines in tree order (a matched
 * line's parent and children as context, as the tree shows them); flat, only the matching lines
 * in the flat view's order.
 */
export const ZBomExportRequestSchema = z.object({
  ...treeFilters,
  view: zView,
  sortField: z.enum(BOM_FLAT_SORT_FIELDS, { error: `排序字段只能是：${BOM_FLAT_SORT_FIELDS.join('、')}` }).optional(),
  sortOrder: z.enum(SORT_ORDERS, { error: '排序方向只能是 ascend 或 descend' }).optional(),
});
export const ZBomVendorExportRequestSchema = z.object(vendorFilters);

const zOptionalId = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), zId(label).optional());

/** A new line: under the material (level 2) or under a level-2 line (`parentId`, level 3). */
export const ZAddBomLineRequestSchema = z.object({
  materialCode: zText('一级物料', 40, { verb: '请选择' }),
  parentId: zOptionalId('上级子件'),
  ...bomLineFields,
});
export type AddBomLineRequest = z.input<typeof ZAddBomLineRequestSchema>;
/** A line's fields changed; where it sits stays. The mobile left out keeps the one on record (the form only ever sees it masked). */
export const ZUpdateBomLineRequestSchema = z.object({ id: zId('BOM 行'), ...bomLineFields });
export type UpdateBomLineRequest = z.input<typeof ZUpdateBomLineRequestSchema>;
export const ZBomLineIdRequestSchema = z.object({ id: zId('BOM 行') });

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

// ---- the manufacturer's views ------------------------------------------------------------------------

export const ZBomSupplierRow = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  /** Materials it supplies now. */
  supplied: z.number().int(),
  /** … and of them, those with a BOM. */
  withBom: z.number().int(),
  lineCount: z.number().int(),
  vendorCount: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type BomSupplierRow = z.infer<typeof ZBomSupplierRow>;
export const BOM_SUPPLIER_SORT_FIELDS = ['supplierCode', 'lineCount', 'vendorCount', 'updatedAt'] as const;
export const ZBomSupplierRequestSchema = ZPageRequest(BOM_SUPPLIER_SORT_FIELDS, { keyword: zOptionalText(100) });

/** Where-used: which first-tier suppliers and materials depend on a vendor or a component. */
export const BOM_WHERE_USED_SORT_FIELDS = ['supplierCode', 'materialCode', 'componentCode', 'vendorName'] as const;
export const ZWhereUsedRequestSchema = ZPageRequest(BOM_WHERE_USED_SORT_FIELDS, {
  vendor: zOptionalText(100),
  component: zOptionalText(100),
}).refine((v) => v.vendor || v.component, { message: '请输入次级供应商或子件', path: ['vendor'] });
export type WhereUsedRequest = z.input<typeof ZWhereUsedRequestSchema>;
export const ZWhereUsedRow = z.object({
  id: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  level: z.number().int(),
  parentCode: z.string(),
  componentCode: z.string(),
  componentName: z.string(),
  quantity: z.number(),
  extendedQuantity: z.number(),
  unit: z.string(),
  vendorName: z.string(),
  vendorCreditCode: z.string(),
  vendorRegion: z.string().nullable(),
});
export type WhereUsedRow = z.infer<typeof ZWhereUsedRow>;

// ---- calls -----------------------------------------------------------------------------------------

const tag = 'bom';
const tagSupplier = 'bom (supplier)';

export const bomApi = {
  // supplier side: the caller's own BOM only
  tree: endpoint({
    path: 'supplier/bomlevel/searchBomLevelList',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary:
      '本供应商的二三级BOM：树形（view=tree，默认，按一级物料分页）或平铺（view=flat，按行分页、可排序）；可按物料、子件、次级供应商、层级筛选',
    body: ZBomTreeRequestSchema,
    response: ZCappedPage(ZBomLevelListRow),
  }),
  vendors: endpoint({
    path: 'supplier/bomlevel/searchBomVenderList',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商的次级供应商：所供子件、涉及物料及数量',
    body: ZBomVendorRequestSchema,
    response: ZCappedPage(ZBomVendorRow),
  }),
  materials: endpoint({
    path: 'supplier/bomlevel/findBomMaterials',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商供货的物料（一级物料）及其 BOM 行数',
    response: ZEnvelope(z.array(ZBomMaterialOption)),
  }),
  add: endpoint({
    path: 'supplier/bomlevel/addBomLine',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '新增一行（二级子件，或某二级子件下的三级子件）',
    body: ZAddBomLineRequestSchema,
    response: ZEnvelope(ZBomLevel3),
  }),
  update: endpoint({
    path: 'supplier/bomlevel/updateBomLine',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '修改一行',
    body: ZUpdateBomLineRequestSchema,
    response: ZEnvelope(ZBomLevel3),
  }),
  remove: endpoint({
    path: 'supplier/bomlevel/deleteBomLine',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '删除一行（二级子件连同其三级子件）',
    body: ZBomLineIdRequestSchema,
    response: ZEnvelope(z.object({ removed: z.number().int() })),
  }),
  template: endpoint({
    path: 'supplier/bomlevel/downloadTemplate',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    kind: 'bytes',
    summary: '下载导入模板（.xlsx，中文表头，附填写说明和本供应商的供货物料）',
  }),
  import: endpoint({
    path: 'supplier/bomlevel/importBom',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    button: PAGES.twoOrThreeLevelsBom.buttons.import,
    kind: 'multipart',
    summary: '从 Excel 导入 BOM：先整体校验，全部正确才在一个事务中写入；文件中的每个一级物料的 BOM 被整体替换',
    description: `multipart/form-data：confirm（true 写入；否则只校验并返回各物料现有/导入行数），然后文件部分 file（.xlsx，不超过 ${BOM_IMPORT_MAX_MB} MB）。有错误时返回 400，errors 逐行逐列列出（field 为“第 N 行 列名”）。`,
    response: ZEnvelope(ZBomImportResult),
  }),
  exportLines: endpoint({
    path: 'supplier/bomlevel/exportBom',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    kind: 'bytes',
    summary:
      '导出本供应商的 BOM（.xlsx，与当前视图相同的筛选和顺序：树形按树的顺序，平铺只含匹配行、按平铺的排序；列同导入模板，另加层级和累计用量）',
    body: ZBomExportRequestSchema,
  }),
  exportVendors: endpoint({
    path: 'supplier/bomlevel/exportBomVender',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    kind: 'bytes',
    summary: '导出本供应商的次级供应商（.xlsx，与列表相同的筛选）',
    body: ZBomVendorExportRequestSchema,
  }),

  // manufacturer side: read only, any supplier
  suppliers: endpoint({
    path: 'haier/bomlevel/findBomSuppliers',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '各供应商的二三级BOM概况：供货物料、已维护 BOM 的物料、行数、次级供应商数',
    body: ZBomSupplierRequestSchema,
    response: ZCappedPage(ZBomSupplierRow),
  }),
  haierTree: endpoint({
    path: 'haier/bomlevel/searchBomLevelList',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '某供应商的二三级BOM（只读；树形或平铺，同 supplier/bomlevel/searchBomLevelList）',
    body: ZHaierBomTreeRequestSchema,
    response: ZCappedPage(ZBomLevelListRow),
    columns: BOM_VENDOR_COLUMNS,
  }),
  haierVendors: endpoint({
    path: 'haier/bomlevel/searchBomVenderList',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '某供应商的次级供应商（只读）',
    body: ZHaierBomVendorRequestSchema,
    response: ZCappedPage(ZBomVendorRow),
    columns: BOM_VENDOR_COLUMNS,
  }),
  whereUsed: endpoint({
    path: 'haier/bomlevel/searchWhereUsed',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '反查：哪些一级供应商的哪些物料用到某次级供应商或某子件',
    body: ZWhereUsedRequestSchema,
    response: ZCappedPage(ZWhereUsedRow),
  }),
} as const;
