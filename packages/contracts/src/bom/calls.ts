/** The BOM calls: the supplier's own BOM (read, edit, import, export), then the manufacturer's read-only views. */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { PAGES } from '../pages.ts';
import { BOM_IMPORT_MAX_MB, ZBomImportResult } from './import.ts';
import { ZAddBomLineRequestSchema, ZBomLineIdRequestSchema, ZUpdateBomLineRequestSchema } from './lines.ts';
import { ZBomSupplierRequestSchema, ZBomSupplierRow, ZWhereUsedRequestSchema, ZWhereUsedRow } from './trace.ts';
import {
  ZBomExportRequestSchema,
  ZBomLevel3,
  ZBomLevelListRow,
  ZBomMaterialOption,
  ZBomTreeRequestSchema,
  ZHaierBomTreeRequestSchema,
} from './tree.ts';
import {
  BOM_VENDOR_COLUMNS,
  ZBomVendorExportRequestSchema,
  ZBomVendorRequestSchema,
  ZBomVendorRow,
  ZHaierBomVendorRequestSchema,
} from './vendors.ts';

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
