import { z } from 'zod';

/** The response envelope of every call: `{ success, code, message, data }`. */
export function ZEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.boolean(),
    code: z.string(),
    message: z.string(),
    data,
  });
}

/** A paged response: `data` is the page's rows and `total` the number of matching rows. */
export function ZPagedEnvelope<T extends z.ZodType>(row: T) {
  return z.object({
    success: z.boolean(),
    code: z.string(),
    message: z.string(),
    data: z.array(row),
    total: z.number().int(),
  });
}

/** A paged list whose total may be capped at LIST_WINDOW_MAX (then `totalCapped` is true). */
export function ZCappedPage<T extends z.ZodType>(row: T) {
  return ZPagedEnvelope(row).extend({ totalCapped: z.boolean().optional() });
}

/** Field errors of a 400: which field, and what to do about it, in Chinese. */
export const ZFieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof ZFieldError>;

export interface Envelope<T> {
  success: boolean;
  code: string;
  message: string;
  data: T;
}
export interface PagedEnvelope<T> extends Envelope<T[]> {
  total: number;
  totalCapped?: boolean;
}

export const ZNullData = ZEnvelope(z.null());
