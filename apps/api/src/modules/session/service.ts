import type { FastifyRequest } from 'fastify';
import {
  CODES,
  DEFAULT_PAGE,
  PAGES,
  SESSION_ERRORS,
  USER_TYPES,
  type CurrentUser,
  type LoginRequest,
  type UserType,
} from '@esm/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/password.ts';
import { AppError } from '../../plugins/errors.ts';
import { loginRefusals } from '../../lib/metrics.ts';
import { settleLoginSlot, takeLoginSlot } from './limits.ts';
import { recordSignIn } from './signins.ts';
import { voidLoginSlot } from './limits.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { SESSION_COOKIE, type SessionUserRecord } from '../../plugins/session.ts';
import { readRows } from '../../db/rows.ts';
import { Prisma } from '../../generated/prisma/client.ts';

/**
 * The account's user with its supplier's name and its password hash, in one statement: what the
 * check needs and what the session's first read (readSession, right after) would otherwise read
 * again through Prisma (the user, then its supplier).
 */
async function signInUser(db: Db, account: string): Promise<(SessionUserRecord & { passwordHash: string }) | null> {
  const [row] = await readRows<SessionUserRecord & { passwordHash: string }>(
    db,
    Prisma.sql`SELECT u.id, u.account, u.name, u.nick, u.type, u.enabled, u.supplier_code AS "supplierCode",
  sp.name AS "supplierName", u.sessions_valid_from AS "sessionsValidFrom", u.password_hash AS "passwordHash"
FROM app_user u LEFT JOIN supplier sp ON sp.code = u.supplier_code WHERE u.account = ${account}`,
    'esm_sign_in_user',
  );
  return row ? { ...row, type: Number(row.type) } : null;
}

/** A user type's landing page. */
export const defaultPathOf = (type: number): string => DEFAULT_PAGE[type as UserType] ?? PAGES.dashboard.path;

export function toCurrentUser(u: SessionUser): CurrentUser {
  return {
    id: u.id,
    account: u.account,
    type: u.type,
    name: u.name,
    nick: u.nick,
    supplierCode: u.supplierCode,
    supplierName: u.supplierName,
    displayName: u.isSupplier ? u.nick : u.name,
    defaultPath: defaultPathOf(u.type),
  };
}

export async function login(db: Db, config: Config, request: FastifyRequest, body: LoginRequest) {
  // request.ip: the client's address as resolved through the trusted proxies only (config.trustProxy)
  const ip = request.ip;
  const log = (success: boolean, code: string, reason: string, userId?: number) =>
    recordSignIn(db, { userId, account: body.account, source: 'password', ip, success, code, reason });
  const slot = await takeLoginSlot(db, config, body.account, ip);
  if (!slot.ok) {
    const minutes = Math.ceil(config.loginWindowMs / 60_000);
    request.log.info({ account: body.account, ip }, 'login refused by the limits');
    loginRefusals.inc({ reason: 'rate_limited' });
    await log(false, CODES.LOGIN_RATE_LIMITED, '登录失败次数过多');
    throw new AppError(429, `登录失败次数过多，请 ${minutes} 分钟后再试`, CODES.LOGIN_RATE_LIMITED, undefined, {
      'Retry-After': String(slot.retryAfterSeconds),
    });
  }
  const check = async () => {
    const user = await signInUser(db, body.account);
    const good = user
      ? await verifyPassword(body.password, user.passwordHash)
      : (await burnPasswordCheck(body.password), false);
    await settleLoginSlot(db, slot.attemptId, good);
    return { user, good };
  };
  const { user, good } = await check().catch(async (e: unknown) => {
    // the attempt failed for another reason than a wrong password (the database gone meanwhile):
    // it is not a failure, and must not count towards locking the account or the address
    await voidLoginSlot(db, slot.attemptId);
    throw e;
  });
  if (!user || !good) {
    await log(false, CODES.LOGIN_BAD_CREDENTIALS, user ? '密码错误' : '账号不存在', user?.id);
    loginRefusals.inc({ reason: 'bad_credentials' });
    throw new AppError(401, '账号或密码错误', CODES.LOGIN_BAD_CREDENTIALS);
  }
  if (!user.enabled) {
    await log(false, CODES.LOGIN_DISABLED, '账号已停用', user.id);
    loginRefusals.inc({ reason: 'disabled' });
    throw new AppError(403, '账号已停用，请联系管理员', CODES.LOGIN_DISABLED);
  }
  // A type outside 2..9 has no page here; without this check the login created a session that
  // readSession then refused (204), and the call failed with a 500.
  if (!(USER_TYPES as readonly number[]).includes(user.type)) {
    await log(false, '205', `用户类型 ${user.type} 不能使用本门户`, user.id);
    loginRefusals.inc({ reason: 'no_portal_type' });
    throw new AppError(403, `${SESSION_ERRORS[205]}：该账号不能使用本门户，请联系管理员`, '205');
  }

  // A new session id at every login: a session fixed before sign-in is worth nothing after. A
  // request without a session cookie already has an id of its own, made for it now and stored
  // nowhere: nothing to fix, and regenerating it cost two statements (a delete and an empty save).
  if (request.cookies[SESSION_COOKIE]) await request.session.regenerate();
  request.session.userId = user.id;
  request.session.userType = user.type;
  request.session.loginAt = Date.now();
  request.session.source = 'password';
  request.session.fresh = true;
  // the user as this request read it, for readSession (as the session read joins it on later calls);
  // neither stored nor compared by the change check (plugins/session.ts)
  const { passwordHash: _hash, ...record } = user;
  request.session._user = record;
  await request.session.save();
  await log(true, CODES.LOGIN_OK, '账号密码登录成功', user.id);
  request.log.info({ userId: user.id, type: user.type }, 'login');
}
