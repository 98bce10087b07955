import { BASE_PATH, LOGIN_PATH } from './routes.ts';

/**
 * The session's zod-free pieces: what the login page and the session check need, so
 * the first load of /esm/login carries neither zod nor the other domains' schemas. session.ts
 * builds its schemas and endpoint declarations from these; `checkLoginField` answers exactly as
 * ZLoginRequestSchema does (session-basics.test.ts holds them together).
 */

/** The session calls' paths, used by `sessionApi` in session.ts and by the web's session check. */
export const SESSION_PATHS = {
  current: 'user/current',
  login: 'user/login',
  logout: 'user/logout',
  companyLogin: 'user/companyLogin',
} as const;

export const LOGIN_LIMITS = { accountMax: 64, passwordMax: 128 } as const;

export const LOGIN_FIELD_TEXT = {
  accountRequired: '请输入账号',
  accountTooLong: `账号不能超过 ${LOGIN_LIMITS.accountMax} 个字符`,
  accountNul: '账号不能包含空字符',
  passwordRequired: '请输入密码',
  passwordTooLong: `密码不能超过 ${LOGIN_LIMITS.passwordMax} 个字符`,
  passwordNul: '密码不能包含空字符',
} as const;

/** The first message ZLoginRequestSchema gives for one field's value, or undefined when valid. */
export function checkLoginField(field: 'account' | 'password', value: unknown): string | undefined {
  const t = LOGIN_FIELD_TEXT;
  if (field === 'account') {
    if (typeof value !== 'string') return t.accountRequired;
    const s = value.trim();
    if (s.length < 1) return t.accountRequired;
    if (s.length > LOGIN_LIMITS.accountMax) return t.accountTooLong;
    return s.includes('\u0000') ? t.accountNul : undefined;
  }
  if (typeof value !== 'string' || value.length < 1) return t.passwordRequired;
  if (value.length > LOGIN_LIMITS.passwordMax) return t.passwordTooLong;
  return value.includes('\u0000') ? t.passwordNul : undefined;
}

/** The query parameters of a sign-in hand-off: removed from the address bar once it is done. */
export const HANDOFF_PARAMS = [
  'code',
  'state',
  'iss',
  'session_state',
  'error',
  'error_description',
  'error_uri',
] as const;
/** A hand-off is present when the provider answered (code or error) with our state. */
export const hasHandoff = (params: Record<string, string>) => Boolean(params.state && (params.code || params.error));

export const COMPANY_LOGIN_TEXT = '从公司门户登录';

export const RETURN_PATH_MAX = 1000;

/**
 * A page of the portal a sign-in may return to: a path under /esm/ (not the login page), never
 * another site (`//host`, a backslash, whitespace). The login page's ?redirect= and the company
 * sign-in's returnTo both go through it (no open redirect).
 */
export function isReturnPath(raw: string | null | undefined): raw is string {
  return (
    typeof raw === 'string' &&
    raw.length <= RETURN_PATH_MAX &&
    raw.startsWith(`${BASE_PATH}/`) &&
    !raw.startsWith(LOGIN_PATH) &&
    !/[\\\s]/.test(raw)
  );
}
