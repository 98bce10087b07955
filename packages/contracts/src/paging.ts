import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 30, 40] as const;
export const PAGE_SIZE_MAX = 100;
export const SORT_ORDERS = ['ascend', 'descend'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * Lists page through at most this many rows (page × size); totals are counted up to it and
 * reported as capped beyond (no exact count(*) over millions of rows per request).
 */
export const LIST_WINDOW_MAX = 10_000;

const pageInt = (message: string, min: number, max: number, minMessage: string, maxMessage: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .union([z.number(), z.string().regex(/^\d{1,9}$/, message)], { error: message })
      .transform((v) => Number(v))
      .pipe(z.number().int(message).min(min, minMessage).max(max, maxMessage))
      .optional(),
  );

/**
 * The paged request, as the legacy portal's: `results` (page size), `page`, `sortField`,
 * `sortOrder`, plus each page's filters. `sortField` is checked against the page's own list.
 */
export function ZPageRequest<F extends readonly [string, ...string[]], S extends z.ZodRawShape>(
  sortFields: F,
  filters: S,
) {
  return z
    .object({
      results: pageInt(
        '每页条数必须是整数',
        1,
        PAGE_SIZE_MAX,
        '每页至少 1 条',
        `每页最多 ${PAGE_SIZE_MAX} 条`,
      ).transform((v) => v ?? PAGE_SIZE_DEFAULT),
      page: pageInt('页码必须是整数', 1, 1_000_000, '页码从 1 开始', '页码过大').transform((v) => v ?? 1),
      sortField: z.enum(sortFields, { error: `排序字段只能是：${sortFields.join('、')}` }).optional(),
      sortOrder: z.enum(SORT_ORDERS, { error: '排序方向只能是 ascend 或 descend' }).optional(),
    })
    .extend(filters);
}

/** The filters of a paged request: what a list page's filter form sets. */
export type PageFilters<R> = Omit<R, 'results' | 'page' | 'sortField' | 'sortOrder'>;
