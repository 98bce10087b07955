import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 30, 40] as const;
export const PAGE_SIZE_MAX = 100;
export const SORT_ORDERS = ['ascend', 'descend'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * The paged request of spec §3 / design §5: `results` (page size), `page`, `sortField`,
 * `sortOrder`, plus each page's filters. `sortField` is checked against the page's own list.
 */
export function ZPageRequest<F extends readonly [string, ...string[]], S extends z.ZodRawShape>(sortFields: F, filters: S) {
  return z
    .object({
      results: z.coerce.number({ error: '每页条数必须是数字' }).int().min(1, '每页至少 1 条').max(PAGE_SIZE_MAX, `每页最多 ${PAGE_SIZE_MAX} 条`).default(PAGE_SIZE_DEFAULT),
      page: z.coerce.number({ error: '页码必须是数字' }).int().min(1, '页码从 1 开始').max(1_000_000, '页码过大').default(1),
      sortField: z.enum(sortFields, { error: `排序字段只能是：${sortFields.join('、')}` }).optional(),
      sortOrder: z.enum(SORT_ORDERS, { error: '排序方向只能是 ascend 或 descend' }).optional(),
    })
    .extend(filters);
}

/** Blank strings from cleared inputs count as "no filter". */
export const zOptionalText = (max = 100) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'string' ? v.trim() : v), z.string().max(max, `不能超过 ${max} 个字符`).optional());

/** A date filter as `YYYY-MM-DD` (a day in the portal's time zone). */
export const zOptionalDate = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD').optional(),
);
