import { z } from 'zod';

/** The response envelope of every call (design §5): `{ success, code, message, data }`. */
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

/** Field errors of a 400: which field, and what to do about it, in Chinese. */
export const ZFieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof ZFieldError>;

export const ZErrorEnvelope = z.object({
  success: z.literal(false),
  code: z.string(),
  message: z.string(),
  data: z.null(),
  errors: z.array(ZFieldError).optional(),
});
export type ErrorEnvelope = z.infer<typeof ZErrorEnvelope>;

export interface Envelope<T> {
  success: boolean;
  code: string;
  message: string;
  data: T;
}
export interface PagedEnvelope<T> extends Envelope<T[]> {
  total: number;
}

export const ZEmpty = z.object({}).strict();
export const ZNullData = ZEnvelope(z.null());
