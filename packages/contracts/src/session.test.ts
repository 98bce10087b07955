/** Login form schema messages, session codes and per-type constants. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CODES,
  DEFAULT_PAGE,
  INTERNAL_TYPES,
  MENU_RULES,
  SESSION_ERRORS,
  SUPPLIER_TYPES,
  USER_TYPES,
  ZLoginRequestSchema,
  isSupplierType,
} from './index.ts';

const messages = (input: unknown) => {
  const r = ZLoginRequestSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('ZLoginRequestSchema', () => {
  it('accepts an account and a password, trimming only the account', () => {
    expect(ZLoginRequestSchema.parse({ account: ' demo3 ', password: ' Esm@2026 ' })).toEqual({
      account: 'demo3',
      password: ' Esm@2026 ',
    });
  });

  it.each([
    [{}, ['account: 请输入账号', 'password: 请输入密码']],
    [{ password: 'x' }, ['account: 请输入账号']],
    [{ account: 'demo3' }, ['password: 请输入密码']],
    [{ account: '', password: 'x' }, ['account: 请输入账号']],
    [{ account: '   ', password: 'x' }, ['account: 请输入账号']],
    [{ account: 'demo3', password: '' }, ['password: 请输入密码']],
    [{ account: 123, password: 'x' }, ['account: 请输入账号']],
    [{ account: 'demo3', password: 123 }, ['password: 请输入密码']],
    [{ account: 'a'.repeat(65), password: 'x' }, ['account: 账号不能超过 64 个字符']],
    [{ account: 'demo3', password: 'p'.repeat(129) }, ['password: 密码不能超过 128 个字符']],
  ])('%j → %j', (input, expected) => {
    expect(messages(input)).toEqual(expected);
  });

  it('the limits themselves are accepted', () => {
    expect(messages({ account: 'a'.repeat(64), password: 'p'.repeat(128) })).toEqual([]);
  });

  it("zod's own messages are Chinese (zh-CN locale)", () => {
    const r = z.object({ n: z.number() }).safeParse({ n: 'x' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('codes', () => {
  it('are the legacy portal values', () => {
    expect(CODES.SESSION_OK).toBe('0');
    expect(CODES.LOGIN_OK).toBe('10000000');
    expect(CODES.SESSION_EXPIRED).toBe('10000007');
    expect(Object.keys(SESSION_ERRORS)).toEqual(['201', '202', '203', '204', '205']);
    expect(SESSION_ERRORS[201]).toBe('登录超时');
    expect(SESSION_ERRORS[202]).toBe('登录错误');
    expect(SESSION_ERRORS[203]).toBe('登录失效');
    expect(SESSION_ERRORS[204]).toBe('登录失效');
    expect(SESSION_ERRORS[205]).toBe('没有权限');
  });

  it('login refusal codes are distinct from the legacy portal codes', () => {
    const all = Object.values(CODES);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('user types', () => {
  it('2 and 4 are suppliers, 3 and 5..9 internal', () => {
    expect([...USER_TYPES]).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...SUPPLIER_TYPES]).toEqual([2, 4]);
    expect([...INTERNAL_TYPES]).toEqual([3, 5, 6, 7, 8, 9]);
    for (const t of USER_TYPES) expect(isSupplierType(t)).toBe(t === 2 || t === 4);
    expect(isSupplierType(1)).toBe(false);
  });

  it('default landing pages of the legacy portal', () => {
    expect(DEFAULT_PAGE).toEqual({
      2: '/esm/supplier/dashboardS',
      4: '/esm/supplier/dashboardS',
      3: '/esm/dashboard',
      7: '/esm/dashboard',
      8: '/esm/dashboard',
      9: '/esm/dashboard',
      5: '/esm/drawingManagement/documentIssueH',
      6: '/esm/drawingAuthorization/drawingEmpowerApprove',
    });
  });

  it('side menu rules of the legacy portal', () => {
    expect(MENU_RULES).toEqual({ openGroupIds: [1, 14], hiddenMpid: -1, skippedIds: [18, 19] });
  });
});
