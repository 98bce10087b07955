/**
 * Authorization on the server: every api route declares who may call it in
 * `config.access` (lib/route.ts takes it from the call's declaration in contracts), and a route
 * without a declaration does not start. A supplier-only call gets the caller's supplier here,
 * as `request.supplier` — refused once, in this one place, when the account has none — and its
 * services take that scope as an argument.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_BASE,
  CODES,
  isSupplierType,
  type Access,
  type SessionErrorCode,
  type UserType,
  SESSION_ERRORS,
} from '@esm/contracts';
import type { Db } from '../db/database.ts';
import { AppError, forbidden } from './errors.ts';
import { SESSION_COOKIE, type SessionUserRecord } from './session.ts';
import { bindUser } from './observability.ts';

export type { Access };

/** The supplier a supplier-only call acts for: the caller's own, from the session. */
export interface SupplierScope {
  code: string;
  name: string | null;
  /** The calling user (confirmations and logs are per user). */
  userId: number;
}

export const NO_SUPPLIER_TEXT = '账号未关联供应商，请联系管理员';

/** A list of user types that are all suppliers: the call acts within the caller's supplier. */
const supplierOnly = (access: Access) => Array.isArray(access) && access.length > 0 && access.every(isSupplierType);

export interface SessionUser {
  id: number;
  account: string;
  name: string;
  nick: string;
  type: UserType;
  supplierCode: string | null;
  supplierName: string | null;
  isSupplier: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    user?: SessionUser;
    /** Set for supplier-only calls: the caller's supplier. */
    supplier?: SupplierScope;
  }
  interface FastifyInstance {
    /** Every api route with its declared access: tests walk it so a new route is covered the day it is added. */
    apiRoutes: { method: string; url: string; access: Access; hasBody: boolean }[];
  }
}

export type SessionState =
  | { ok: true; user: SessionUser }
  | { ok: false; reason: 'none' | 'expired' }
  | { ok: false; reason: 'invalid'; code: SessionErrorCode };

/** The user of a session, from the session store's joined read when it has it (this request's). */
async function sessionUser(db: Db, request: FastifyRequest, userId: number): Promise<SessionUserRecord | null> {
  const read = request.session._user;
  if (read === null || (read && read.id === userId)) return read;
  const row = await db.user.findUnique({ where: { id: userId }, include: { supplier: true } });
  return row && { ...row, supplierName: row.supplier?.name ?? null };
}

/** Reads the session and the user behind it, fresh from the database on every call. */
export async function readSession(db: Db, request: FastifyRequest): Promise<SessionState> {
  const userId = request.session?.userId;
  // A session without a user is nobody signed in when it only waits for a company sign-in's
  // hand-off (modules/session/company-login.ts); otherwise its cookie outlived it: timed out.
  if (!userId)
    return { ok: false, reason: request.cookies[SESSION_COOKIE] && !request.session?.oidc ? 'expired' : 'none' };
  const row = await sessionUser(db, request, userId);
  if (!row) return { ok: false, reason: 'invalid', code: 202 };
  if (!row.enabled) return { ok: false, reason: 'invalid', code: 203 };
  if (row.type !== request.session.userType || row.type < 2 || row.type > 9)
    return { ok: false, reason: 'invalid', code: 204 };
  // signed in before the account was disabled, or its type or supplier changed (a trigger keeps the
  // time): over, even once the account is enabled again
  const loginAt = request.session.loginAt;
  if (row.sessionsValidFrom && (loginAt === undefined || loginAt < row.sessionsValidFrom.getTime()))
    return { ok: false, reason: 'expired' };
  bindUser(request, row);
  return {
    ok: true,
    user: {
      id: row.id,
      account: row.account,
      name: row.name,
      nick: row.nick,
      type: row.type as UserType,
      supplierCode: row.supplierCode,
      supplierName: row.supplierName,
      isSupplier: isSupplierType(row.type),
    },
  };
}

export function sessionExpiredError(reason: 'none' | 'expired' | 'invalid') {
  return new AppError(401, reason === 'none' ? '请先登录' : '登录已过期，请重新登录', CODES.SESSION_EXPIRED);
}

export const authPlugin = fp(async (app: FastifyInstance, opts: { db: Db }) => {
  app.decorate('apiRoutes', []);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`route ${String(route.method)} ${route.url} declares no access (config.access)`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      app.apiRoutes.push({ method, url: route.url, access, hasBody: Boolean(route.schema?.body) });
    }
  });

  // preValidation: who you are is checked before what you sent, so a refused caller learns
  // nothing from validation messages.
  app.addHook('preValidation', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const state = await readSession(opts.db, request);
    if (!state.ok) {
      if (state.reason !== 'none') await request.session.destroy();
      throw sessionExpiredError(state.reason);
    }
    if (access !== 'session' && !access.includes(state.user.type)) {
      request.log.info(
        { userId: state.user.id, type: state.user.type, route: request.routeOptions.url },
        'access refused',
      );
      throw forbidden();
    }
    request.user = state.user;
    if (supplierOnly(access)) {
      if (!state.user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
      request.supplier = { code: state.user.supplierCode, name: state.user.supplierName, userId: state.user.id };
    }
  });
});

export { SESSION_ERRORS };
