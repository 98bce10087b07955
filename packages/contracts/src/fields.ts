/**
 * The field schemas every request is built from (schemas reject NUL characters,
 * impossible dates and ids outside their column's range, and coerce nothing that is not a plain
 * integer). A request that breaks one gets a 400 naming the field, never a 500 from the database.
 */
import { z } from 'zod';

/** Postgres int4, the type of every id column. */
export const INT4_MAX = 2_147_483_647;

const NUL = '\u0000';
const NUL_TEXT = '不能包含空字符（\\u0000）';

/**
 * A required text, trimmed: `label` names the field in the messages. Rejects NUL, which
 * Postgres cannot store in text.
 */
export function zText(label: string, max: number, opts: { min?: number; verb?: string } = {}) {
  const verb = opts.verb ?? '请输入';
  return z
    .string({ error: `${verb}${label}` })
    .trim()
    .min(opts.min ?? 1, `${verb}${label}`)
    .max(max, `${label}不能超过 ${max} 个字符`)
    .refine((s) => !s.includes(NUL), `${label}${NUL_TEXT}`);
}

/** A filter or optional text: blank (cleared inputs) counts as absent; trimmed; no NUL. */
export const zOptionalText = (max = 100) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .max(max, `不能超过 ${max} 个字符`)
      .refine((s) => !s.includes(NUL), NUL_TEXT)
      .optional(),
  );

/** A plain integer: a JSON number, or a string of decimal digits (multipart fields, links). Nothing else. */
const plainInteger = (bad: string, missing = bad) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,10}$/, bad)], {
      error: (issue) => (issue.input === undefined || issue.input === null || issue.input === '' ? missing : bad),
    })
    .transform((v) => Number(v));

/** A row id (int4, ≥ 1): `label` is what it identifies, e.g. 文件编号. */
export function zId(label: string) {
  const bad = `${label}无效`;
  return plainInteger(bad, `缺少${label}`).pipe(z.number().int(bad).min(1, bad).max(INT4_MAX, bad));
}

/** An optional small integer filter in [min, max] (e.g. a user type); blank counts as absent. */
export const zOptionalInt = (min: number, max: number, message: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    plainInteger(message).pipe(z.number().int(message).min(min, message).max(max, message)).optional(),
  );

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 and 9999-99-99 do not). */
export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 9999 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const dayText = (missing: string, format: string, impossible: string) =>
  z
    .string({ error: missing })
    .refine((s) => DAY.test(s), { message: format, abort: true })
    .refine(isCalendarDay, impossible);

/** A required day, `YYYY-MM-DD`. */
export const zDay = (label: string) => dayText(`请选择${label}`, `${label}格式应为 YYYY-MM-DD`, `${label}无效`);

/** A date filter as `YYYY-MM-DD` (a day in the portal's time zone); blank counts as absent. */
export const zOptionalDate = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  dayText('日期格式应为 YYYY-MM-DD', '日期格式应为 YYYY-MM-DD', '日期不存在，请检查年月日').optional(),
);

/** An optional enum filter; blank counts as absent. */
export function zOptionalEnum<const T extends readonly [string, ...string[]]>(values: T, message: string) {
  return z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(values, { error: message }).optional());
}

/** A filter request with a date range: from ≤ to, reported on `dateTo`. */
export function withDateRange<S extends z.ZodType<{ dateFrom?: string; dateTo?: string }>>(schema: S) {
  return schema.refine((v) => !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo, {
    message: '开始日期不能晚于结束日期',
    path: ['dateTo'],
  });
}
