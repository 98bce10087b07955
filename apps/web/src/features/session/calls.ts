/**
 * The session calls: the session check, login, logout, the company sign-in.
 * Without react-query: the login page's first load (main.tsx) uses them as they are.
 */
import {
  CODES,
  HANDOFF_PARAMS,
  LOGIN_PATH,
  SESSION_PATHS,
  hasHandoff,
  type CurrentUser,
  type LoginRequest,
} from '@esm/contracts/basics';
// the declarations' types only: their zod schemas stay off the login page's first load
import type { sessionApi } from '@esm/contracts';
import { ApiError, callAt } from '../../api/client.ts';
import { forgetFirstCalls } from '../../api/firstCalls.ts';
import { setCompanySite } from '../../app/layout/companySite.ts';

type SessionApi = typeof sessionApi;

export type SessionCheck =
  /** `returnTo`: a company sign-in just completed, back to the page asked for before it. */
  | { state: 'ok'; user: CurrentUser; returnTo?: string }
  /** `companyLogin`: the login page offers 从公司门户登录 (OpenID Connect configured). */
  | { state: 'anonymous'; companyLogin?: boolean }
  | { state: 'blocked'; code: number; homeUrl: string };

/** The current page's query parameters: the session check's payload. */
function pageParams(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

/**
 * user/current: code "0", 10000007 (not signed in) or a session error 201-205. It posts
 * the page's query parameters: a sign-in hand-off from the company home page among them is
 * completed by the server before it answers.
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const res = await callAt<SessionApi['current']>(SESSION_PATHS.current, pageParams(), { silent: true });
    setCompanySite(res.companySiteUrl);
    if (res.data)
      return res.returnTo ? { state: 'ok', user: res.data, returnTo: res.returnTo } : { state: 'ok', user: res.data };
    return { state: 'anonymous', companyLogin: res.companyLogin === true };
  } catch (e) {
    if (e instanceof ApiError) {
      if (e.body) setCompanySite(typeof e.body.companySiteUrl === 'string' ? e.body.companySiteUrl : undefined);
      const code = Number(e.code);
      if (code >= 201 && code <= 205) return { state: 'blocked', code, homeUrl: String(e.body?.homeUrl ?? LOGIN_PATH) };
      // nobody signed in comes back as success: false (code 10000007)
      if (e.status === 401 || e.code === CODES.SESSION_EXPIRED)
        return { state: 'anonymous', companyLogin: e.body?.companyLogin === true };
    }
    throw e;
  }
}

/** The search string without the hand-off's parameters (they are spent once the check answered). */
export function withoutHandoff(search: string): string | undefined {
  const params = new URLSearchParams(search);
  if (!hasHandoff(Object.fromEntries(params))) return undefined;
  for (const p of HANDOFF_PARAMS) params.delete(p);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

export const login = (body: LoginRequest) => callAt<SessionApi['login']>(SESSION_PATHS.login, body, { silent: true });
/**
 * The legacy page posts { a: 1 }; the server ignores the body. The pages' first calls remembered
 * for this user (api/firstCalls.ts) are forgotten first: nothing of theirs stays for the next user.
 */
export const logout = () => {
  forgetFirstCalls();
  return callAt<SessionApi['logout']>(SESSION_PATHS.logout);
};
/** Where to sign in at the company's identity provider (the server keeps the sign-in's secrets). */
export const companyLogin = (returnTo?: string) =>
  callAt<SessionApi['companyLogin']>(SESSION_PATHS.companyLogin, returnTo ? { returnTo } : {}, { silent: true });
