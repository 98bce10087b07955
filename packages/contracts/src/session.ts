/** Session calls: the session check, login, logout. */
import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { ZEnvelope } from './envelope.ts';
import { zOptionalText } from './fields.ts';
import { LOGIN_FIELD_TEXT, LOGIN_LIMITS, RETURN_PATH_MAX, SESSION_PATHS } from './session-basics.ts';

// the zod-free pieces live in session-basics.ts (the login page's first load); exported from here as before
export {
  COMPANY_LOGIN_TEXT,
  HANDOFF_PARAMS,
  hasHandoff,
  SESSION_PATHS,
  LOGIN_FIELD_TEXT,
  LOGIN_LIMITS,
  checkLoginField,
  RETURN_PATH_MAX,
  isReturnPath,
} from './session-basics.ts';

export const ZLoginRequestSchema = z.object({
  account: z
    .string({ error: LOGIN_FIELD_TEXT.accountRequired })
    .trim()
    .min(1, LOGIN_FIELD_TEXT.accountRequired)
    .max(LOGIN_LIMITS.accountMax, LOGIN_FIELD_TEXT.accountTooLong)
    .refine((s) => !s.includes('\u0000'), LOGIN_FIELD_TEXT.accountNul),
  password: z
    .string({ error: LOGIN_FIELD_TEXT.passwordRequired })
    .min(1, LOGIN_FIELD_TEXT.passwordRequired)
    .max(LOGIN_LIMITS.passwordMax, LOGIN_FIELD_TEXT.passwordTooLong)
    .refine((s) => !s.includes('\u0000'), LOGIN_FIELD_TEXT.passwordNul),
});
export type LoginRequest = z.infer<typeof ZLoginRequestSchema>;

export const ZCurrentUser = z.object({
  id: z.number().int(),
  account: z.string(),
  type: z.number().int(),
  name: z.string(),
  nick: z.string(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  /** Vendor shows nick, internal shows name. */
  displayName: z.string(),
  /** The type's landing page. */
  defaultPath: z.string(),
});
export type CurrentUser = z.infer<typeof ZCurrentUser>;

/** user/current: code "0" with the user; on failure code 201..205 or 10000007 (see codes.ts). */
export const ZCurrentUserResponseSchema = ZEnvelope(ZCurrentUser.nullable()).extend({
  /** Where the blocking session dialog sends the user (the company home page). */
  homeUrl: z.string().optional(),
  /**
   * The company site (COMPANY_SITE_URL) that the logo, 帮助 and the footer's agreement links lead
   * to; absent on a standalone deployment, where the web hides them.
   */
  companySiteUrl: z.string().optional(),
  /** Nobody signed in: whether the login page offers 从公司门户登录 (OpenID Connect configured). */
  companyLogin: z.boolean().optional(),
  /**
   * A company sign-in was just completed by this check: the page the user had asked for before
   * it (user/companyLogin's `returnTo`), given only when it is one of the user's own pages.
   */
  returnTo: z.string().optional(),
});

/**
 * The session check posts the page's query parameters. When they carry a sign-in
 * hand-off from the company's identity provider (`code` and `state`, or `error` and `state`),
 * the server completes it before answering. Other parameters (standardCode …) are ignored.
 */
export const ZSessionCheckRequestSchema = z
  .record(z.string().max(64, '参数名过长'), z.string({ error: '参数值必须是文本' }).max(4096, '参数值过长'))
  .refine((o) => Object.keys(o).length <= 30, '参数过多')
  // a POST without a body (Fastify's null) is a check without parameters
  .nullish();
export type SessionCheckRequest = z.input<typeof ZSessionCheckRequestSchema>;

/**
 * user/companyLogin: `returnTo`, the page the user was sent to the login page from (its
 * ?redirect=); the server keeps it with the pending sign-in and gives it back once signed in. Not
 * a return path (another site, the login page) → left out, not refused: the sign-in goes on.
 */
export const ZCompanyLoginRequestSchema = z.object({ returnTo: zOptionalText(RETURN_PATH_MAX) }).nullish();

/** user/companyLogin: where the browser goes to sign in at the company's identity provider. */
export const ZCompanyLoginResponseSchema = ZEnvelope(z.object({ url: z.string() }));
/** user/logout: `redirectUrl` when the browser must go on (the provider's sign-out, then the company home page). */
export const ZLogoutResponseSchema = ZEnvelope(z.object({ redirectUrl: z.string() }).nullable());

const tag = 'session';

export const sessionApi = {
  current: endpoint({
    path: SESSION_PATHS.current,
    access: 'public',
    tag,
    summary:
      '会话检查（提交当前页面的查询参数，含公司门户登录回传时完成登录）：code "0" 返回当前用户；201-205 会话错误；10000007 未登录',
    body: ZSessionCheckRequestSchema,
    response: ZCurrentUserResponseSchema,
    alsoFor: [401, 403],
  }),
  login: endpoint({
    path: SESSION_PATHS.login,
    access: 'public',
    tag,
    summary: '登录：code "10000000" 成功',
    body: ZLoginRequestSchema,
    response: ZEnvelope(ZCurrentUser),
  }),
  /** The legacy page posts { a: 1 }; any body is accepted and ignored. */
  logout: endpoint({
    path: SESSION_PATHS.logout,
    access: 'public',
    tag,
    summary: '退出登录（公司门户登录的会话同时退出身份提供方）',
    response: ZLogoutResponseSchema,
  }),
  /** Starts the OpenID Connect sign-in (authorization code + PKCE); 404 when not configured. */
  companyLogin: endpoint({
    path: SESSION_PATHS.companyLogin,
    access: 'public',
    tag,
    summary: '从公司门户登录：返回身份提供方的登录地址（returnTo：登录后回到的页面）',
    body: ZCompanyLoginRequestSchema,
    response: ZCompanyLoginResponseSchema,
  }),
} as const;
