import { CODES } from '@esm/contracts';

/** A successful envelope. */
export function ok<T>(data: T, message = '操作成功', code: string = CODES.OK) {
  return { success: true as const, code, message, data };
}

/** A successful paged envelope: the page's rows under `data`, the match count under `total`. */
export function paged<T>(data: T[], total: number) {
  return { success: true as const, code: CODES.OK, message: '查询成功', data, total };
}
