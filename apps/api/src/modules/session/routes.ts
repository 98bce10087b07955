/**
 * Session and shell calls (the legacy portal's paths): user/current, user/login,
 * user/logout, and user/companyLogin. POST with JSON.
 */
import type { FastifyInstance } from 'fastify';
import { CODES, LOGIN_SUCCESS_TEXT, SESSION_ERRORS, hasHandoff, sessionApi } from '@esm/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { route } from '../../lib/route.ts';
import { readSession } from '../../plugins/auth.ts';
import { AppError } from '../../plugins/errors.ts';
import { SESSION_COOKIE } from '../../plugins/session.ts';
import { typeHasMenu } from '../menu/index.ts';
import { completeCompanySignIn, startCompanySignIn } from './company-login.ts';
import { RelyingParty } from './oidc.ts';
import { login, toCurrentUser } from './service.ts';

export async function sessionRoutes(app: FastifyInstance, { db, config }: { db: Db; config: Config }) {
  const oidc = config.oidc;
  const rp = oidc ? new RelyingParty(oidc) : undefined;
  // every answer of the session check says where the company site is (the login page's footer too)
  const site = config.companySiteUrl ? { companySiteUrl: config.companySiteUrl } : {};

  route(app, sessionApi.current, async ({ body, request, reply }) => {
    // The page's query parameters: a hand-off from the company's provider signs in first.
    let returnTo: string | undefined;
    if (oidc && rp && body && hasHandoff(body)) {
      const done = await completeCompanySignIn(db, { ...config, oidc }, rp, request, reply, body);
      if (!done.ok) {
        return reply.status(401).send({
          success: false,
          code: String(done.code),
          message: SESSION_ERRORS[done.code],
          data: null,
          homeUrl: config.companyHomeUrl,
          ...site,
        });
      }
      returnTo = done.returnTo;
    }
    const state = await readSession(db, request);
    if (state.ok) {
      if (!(await typeHasMenu(db, state.user.type))) {
        return reply.status(403).send({
          success: false,
          code: '205',
          message: SESSION_ERRORS[205],
          data: null,
          homeUrl: config.companyHomeUrl,
          ...site,
        });
      }
      return {
        success: true,
        code: CODES.SESSION_OK,
        message: '会话有效',
        data: toCurrentUser(state.user),
        ...(returnTo ? { returnTo } : {}),
        ...site,
      };
    }
    // Nobody signed in is the session check's ordinary answer on the login page, not a failed
    // call: 200 with 10000007 (a 401 there was a console error on every login page load).
    if (state.reason === 'none')
      return {
        success: false,
        code: CODES.SESSION_EXPIRED,
        message: '请先登录',
        data: null,
        ...(rp ? { companyLogin: true } : {}),
        ...site,
      };
    await request.session.destroy();
    const code = state.reason === 'invalid' ? state.code : 201;
    return reply.status(401).send({
      success: false,
      code: String(code),
      message: SESSION_ERRORS[code],
      data: null,
      homeUrl: config.companyHomeUrl,
      ...site,
    });
  });

  route(app, sessionApi.login, async ({ body, request }) => {
    await login(db, config, request, body);
    const state = await readSession(db, request);
    if (!state.ok) throw new Error('session not readable right after login');
    return { success: true, code: CODES.LOGIN_OK, message: LOGIN_SUCCESS_TEXT, data: toCurrentUser(state.user) };
  });

  route(app, sessionApi.companyLogin, async ({ body, request }) => {
    if (!rp) throw new AppError(404, '未配置公司门户登录，请使用账号密码登录');
    let url: string;
    try {
      url = await startCompanySignIn(rp, request, body?.returnTo);
    } catch (e) {
      request.log.warn({ err: e }, 'identity provider unreachable');
      throw new AppError(503, '公司门户登录暂不可用，请稍后重试或使用账号密码登录', undefined, undefined, {
        'Retry-After': '30',
      });
    }
    return { success: true, code: CODES.OK, message: '请在公司门户登录', data: { url } };
  });

  route(app, sessionApi.logout, async ({ request, reply }) => {
    const session = request.session;
    const { source, idToken } = session;
    if (session.userId) request.log.info({ userId: session.userId }, 'logout');
    await session.destroy();
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    // A company sign-in also signs out at the provider, which then returns to the company home page.
    let redirectUrl: string | undefined;
    if (source === 'oidc' && oidc && rp) {
      const home = oidc.postLogoutRedirectUri ?? new URL(config.companyHomeUrl, oidc.redirectUri).href;
      redirectUrl = await rp.endSessionUrl(idToken, home).catch((e: unknown) => {
        request.log.warn({ err: e }, 'identity provider unreachable at logout');
        return undefined;
      });
      redirectUrl ??= home;
    }
    return { success: true, code: CODES.OK, message: '已退出登录', data: redirectUrl ? { redirectUrl } : null };
  });
}
