/** Business codes of the legacy portal. The HTTP status carries the error class. */
export const CODES = {
  /** Session check succeeded (user/current). */
  SESSION_OK: '0',
  /** Login succeeded (user/login). */
  LOGIN_OK: '10000000',
  /** The session expired or there is none: the browser goes to /login. */
  SESSION_EXPIRED: '10000007',
  /** Any other successful call. */
  OK: '200',
  /** Login refused: wrong account or password (one message for both, by design). */
  LOGIN_BAD_CREDENTIALS: '10000001',
  /** Login refused: the account is disabled. */
  LOGIN_DISABLED: '10000002',
  /** Login refused: too many failed attempts for this account or address. */
  LOGIN_RATE_LIMITED: '10000003',
} as const;

/**
 * Session errors of user/current: each shows a blocking dialog that leads to the
 * company home page. What triggers each is ours to define (the legacy portal shows only the texts):
 *  201 the session timed out (its cookie names a session that is gone or expired);
 *  202 the session's account no longer exists;
 *  203 the account was disabled after sign-in;
 *  204 the account's user type changed after sign-in, or is not a portal type;
 *  205 the user type has no page in this portal.
 * A sign-in from the company home page (OpenID Connect) that fails answers the same way:
 *  202 the hand-off is bad, expired, replayed or refused by the provider;
 *  203 the account is disabled;
 *  204 the provider's user type or supplier code does not match the account's (or is not a portal type);
 *  205 the company account has no portal account (or its type has no page here).
 */
export const SESSION_ERRORS = {
  201: '登录超时',
  202: '登录错误',
  203: '登录失效',
  204: '登录失效',
  205: '没有权限',
} as const;
export type SessionErrorCode = keyof typeof SESSION_ERRORS;
export const SESSION_ERROR_BODY = '即将跳转到公司首页，请重新登录。';

/** User types 2..9. 2 and 4 are suppliers; all others are internal staff. */
export const USER_TYPES = [2, 3, 4, 5, 6, 7, 8, 9] as const;
export type UserType = (typeof USER_TYPES)[number];
export const SUPPLIER_TYPES = [2, 4] as const;
export const INTERNAL_TYPES = [3, 5, 6, 7, 8, 9] as const;
/** Internal drawing management: 3, 8, 9, and 7 with SQE / product-line management. */
export const DRAWING_ADMIN_TYPES = [3, 7, 8, 9] as const;

export function isSupplierType(type: number): boolean {
  return type === 2 || type === 4;
}

export const USER_TYPE_LABELS: Record<UserType, string> = {
  2: '供应商',
  3: '图纸管理员',
  4: '供应商',
  5: '图纸问题回复',
  6: '授权审批',
  7: 'SQE及产品线管理',
  8: '图纸管理员',
  9: '图纸管理员',
};
