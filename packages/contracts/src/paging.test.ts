/** The paged request of the portal: results / page defaults and bounds, sort, blank filters. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  PAGE_SIZE_OPTIONS,
  ZPageRequest,
  ZVisitLogRequestSchema,
  zOptionalDate,
  zOptionalText,
} from './index.ts';

const Z = ZPageRequest(['createdAt', 'name'] as const, { keyword: zOptionalText(10), day: zOptionalDate });
const messages = (r: z.ZodSafeParseResult<unknown>) =>
  r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('ZPageRequest', () => {
  it('defaults to page 1 of 10', () => {
    expect(PAGE_SIZE_DEFAULT).toBe(10);
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 30, 40]);
    expect(Z.parse({})).toEqual({ results: 10, page: 1 });
  });

  it('accepts the bounds and numbers sent as strings', () => {
    expect(Z.parse({ results: 1, page: 1 })).toMatchObject({ results: 1, page: 1 });
    expect(Z.parse({ results: PAGE_SIZE_MAX, page: 1_000_000 })).toMatchObject({ results: 100, page: 1_000_000 });
    expect(Z.parse({ results: '20', page: '3' })).toMatchObject({ results: 20, page: 3 });
  });

  it.each([
    [{ results: 0 }, 'results: 每页至少 1 条'],
    [{ results: 101 }, 'results: 每页最多 100 条'],
    [{ results: -5 }, 'results: 每页至少 1 条'],
    [{ page: 0 }, 'page: 页码从 1 开始'],
    [{ page: -1 }, 'page: 页码从 1 开始'],
    [{ page: 1_000_001 }, 'page: 页码过大'],
  ])('refuses %j with "%s"', (input, message) => {
    expect(messages(Z.safeParse(input))).toEqual([message]);
  });

  it('refuses fractions and non-numbers in Chinese', () => {
    for (const input of [{ results: 1.5 }, { page: 2.5 }, { results: 'abc' }, { page: 'x' }, { results: {} }]) {
      const m = messages(Z.safeParse(input));
      expect(m, JSON.stringify(input)).toHaveLength(1);
      expect(m[0]).toMatch(/[\u4e00-\u9fff]/);
    }
    expect(messages(Z.safeParse({ results: 'abc' }))[0]).toMatch(/^results: /);
  });

  it('sorts only by the listed fields and ascend / descend', () => {
    expect(Z.parse({ sortField: 'name', sortOrder: 'ascend' })).toMatchObject({
      sortField: 'name',
      sortOrder: 'ascend',
    });
    expect(Z.parse({ sortField: 'createdAt', sortOrder: 'descend' })).toMatchObject({
      sortField: 'createdAt',
      sortOrder: 'descend',
    });
    expect(messages(Z.safeParse({ sortField: 'password' }))).toEqual(['sortField: 排序字段只能是：createdAt、name']);
    expect(messages(Z.safeParse({ sortOrder: 'asc' }))).toEqual(['sortOrder: 排序方向只能是 ascend 或 descend']);
  });

  it('blank text filters are no filter; text is trimmed and bounded', () => {
    expect(Z.parse({ keyword: '   ' }).keyword).toBeUndefined();
    expect(Z.parse({ keyword: '' }).keyword).toBeUndefined();
    expect(Z.parse({ keyword: '  abc ' }).keyword).toBe('abc');
    expect(messages(Z.safeParse({ keyword: 'x'.repeat(11) }))).toEqual(['keyword: 不能超过 10 个字符']);
  });

  it('date filters are YYYY-MM-DD; blank or null is no filter', () => {
    expect(Z.parse({ day: '2025-03-01' }).day).toBe('2025-03-01');
    expect(Z.parse({ day: '' }).day).toBeUndefined();
    expect(Z.parse({ day: null }).day).toBeUndefined();
    expect(messages(Z.safeParse({ day: '2025/03/01' }))).toEqual(['day: 日期格式应为 YYYY-MM-DD']);
  });
});

describe('ZVisitLogRequestSchema', () => {
  it('refuses a start day after the end day, on dateTo', () => {
    expect(messages(ZVisitLogRequestSchema.safeParse({ dateFrom: '2025-03-02', dateTo: '2025-03-01' }))).toEqual([
      'dateTo: 开始日期不能晚于结束日期',
    ]);
    expect(ZVisitLogRequestSchema.safeParse({ dateFrom: '2025-03-01', dateTo: '2025-03-01' }).success).toBe(true);
  });

  it('user type 2..9, blank is no filter', () => {
    expect(ZVisitLogRequestSchema.parse({ userType: '7' }).userType).toBe(7);
    expect(ZVisitLogRequestSchema.parse({ userType: '' }).userType).toBeUndefined();
    expect(messages(ZVisitLogRequestSchema.safeParse({ userType: 1 }))).toEqual(['userType: 用户类型为 2 到 9']);
    expect(messages(ZVisitLogRequestSchema.safeParse({ userType: 10 }))).toEqual(['userType: 用户类型为 2 到 9']);
  });
});
