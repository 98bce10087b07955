/** The manufacturer's views: each supplier's BOM at a glance, and where a vendor or a component is used. */
import { z } from 'zod';
import { zOptionalText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
/** Where the manufacturer reads a supplier's BOM and searches where-used (not in the legacy portal). */
import { BOM_TRACE_PAGE } from '../page-paths.ts';
export { BOM_TRACE_PAGE };

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
