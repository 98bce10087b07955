import { CODES } from '@esm/contracts';

/** A successful envelope (design §5). */
export function ok<T>(data: T, message = '操作成功', code: string = CODES.OK) {
  return { success: true as const, code, message, data };
}

/** A successful paged envelope: the page's rows under `data`, the match count under `total`. */
export function paged<T>(data: T[], total: number) {
  return { success: true as const, code: CODES.OK, message: '查询成功', data, total };
}

/** Prisma skip/take from the paged request. */
export function pageWindow(q: { page: number; results: number }) {
  return { skip: (q.page - 1) * q.results, take: q.results };
}
