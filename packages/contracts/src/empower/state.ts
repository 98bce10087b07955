/** Whether a supplier may open a material's drawings now, who handles authorization, and its defaults. */
import { z } from 'zod';
import { zText } from '../fields.ts';

// ---- the grant state of a supplier on a material ---------------------------------------------

export const GRANT_STATE_LABELS = {
  VALID: '授权有效',
  EXPIRED: '授权已过期',
  NOT_YET: '授权未生效',
  NONE: '未授权',
} as const;
export type GrantState = keyof typeof GRANT_STATE_LABELS;
export const GRANT_STATES = Object.keys(GRANT_STATE_LABELS) as [GrantState, ...GrantState[]];

export const ZHasEmpowerRequestSchema = z.object({ materialCode: zText('物料编码', 40, { verb: '缺少' }) });
export const ZEmpowerState = z.object({
  empowered: z.boolean(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  reason: z.string().nullable(),
});
export type EmpowerState = z.infer<typeof ZEmpowerState>;

// ---- who ---------------------------------------------------------------------------------------

/** Who decides applications (type 6, authorization approval). */
export const EMPOWER_APPROVER_TYPES = [6] as const;
/** Who reads the applications and their audit: the approver and the drawing admins. */
export const EMPOWER_READER_TYPES = [3, 6, 7, 8, 9] as const;
/** Defaults of the api's configuration (EMPOWER_MAX_PERIOD_DAYS, EMPOWER_EXPIRING_DAYS). */
export const EMPOWER_DEFAULTS = { maxPeriodDays: 365, expiringDays: 30 } as const;
