/** The census: per supplier, how many of its materials are authorized, and the unauthorized ones. */
import { z } from 'zod';
import { zOptionalText, zText } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { GRANT_STATES } from './state.ts';

// ---- census ----------------------------------------------------------------------------------------------

export const ZCensusRow = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  /** Materials it supplies. */
  supplied: z.number().int(),
  /** … with a grant valid now. */
  valid: z.number().int(),
  /** … valid now but ending within the configured days, no later grant covering after. */
  expiring: z.number().int(),
  /** … whose last grant has expired. */
  expired: z.number().int(),
  /** … without a valid grant (supplied − valid). */
  unauthorized: z.number().int(),
  /** Its submitted applications awaiting a decision. */
  pending: z.number().int(),
  /** Effective drawings it may open now. */
  viewable: z.number().int(),
});
export type CensusRow = z.infer<typeof ZCensusRow>;
export const CENSUS_SORT_FIELDS = [
  'supplierCode',
  'supplierName',
  'supplied',
  'valid',
  'expiring',
  'expired',
  'unauthorized',
  'pending',
  'viewable',
] as const;
export const ZCensusPageRequestSchema = ZPageRequest(CENSUS_SORT_FIELDS, { keyword: zOptionalText(100) });
export type CensusPageRequest = z.input<typeof ZCensusPageRequestSchema>;

/** One supplier's materials without a valid grant, and their drawings (noDrawingAndArchivesInformation). */
export const ZUnauthorizedRequestSchema = z.object({ supplierCode: zText('供应商', 32, { verb: '请选择' }) });
export const ZUnauthorizedFile = z.object({
  id: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  viewable: z.boolean(),
  effectiveDate: z.string(),
});
export const ZUnauthorizedMaterial = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string().nullable(),
  grantState: z.enum(GRANT_STATES),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  pendingApplicationId: z.number().int().nullable(),
  files: z.array(ZUnauthorizedFile),
});
export type UnauthorizedMaterial = z.infer<typeof ZUnauthorizedMaterial>;
export const ZUnauthorizedTree = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  supplied: z.number().int(),
  productLines: z.array(z.object({ code: z.string(), name: z.string(), materials: z.array(ZUnauthorizedMaterial) })),
});
export type UnauthorizedTree = z.infer<typeof ZUnauthorizedTree>;
