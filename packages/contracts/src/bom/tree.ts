/**
 * searchBomLevelList: a supplier's BOM as a tree (by level-1 material) or flat (its lines), its
 * filters and sorts, the export of either view, and the supplier's level-1 materials.
 */
import { z } from 'zod';
import { zOptionalEnum, zOptionalText, zText } from '../fields.ts';
import { SORT_ORDERS, ZPageRequest } from '../paging.ts';
import { BOM_LEVELS } from './lines.ts';

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
