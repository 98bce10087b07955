/** searchBomVenderList: a supplier's sub-tier vendors, what each supplies, their governed contact, filters and export. */
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zOptionalText, zText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';

// ---- rows ------------------------------------------------------------------------------------------

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

// ---- requests --------------------------------------------------------------------------------------

const zSupplierCode = zText('供应商', 32, { verb: '请选择' });

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

export const ZBomVendorExportRequestSchema = z.object(vendorFilters);
