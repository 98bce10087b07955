import type { FastifyRequest } from 'fastify';
import { CODES, DEFAULT_PAGE, SESSION_ERRORS, USER_TYPES, type CurrentUser, type LoginRequest, type UserType } from '@esm/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { burnPasswordCheck, verifyPassword } from '../../lib/password.ts';
import { AppError } from '../../plugins/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';

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
    defaultPath: DEFAULT_PAGE[u.type as UserType] ?? '/esm/dashboard',
  };
}

/**
 * Refuses when the account (from this address) or the address as a whole has failed too often
 * in the window. Attempts live in Postgres, so every api process sees the same counts.
 */
async function checkRateLimit(db: Db, config: Config, account: string, ip: string) {
  const since = new Date(Date.now() - config.loginWindowMs);
  const [perAccount, perIp] = await Promise.all([
    db.loginAttempt.count({ where: { account, ip, success: false, createdAt: { gte: since } } }),
    db.loginAttempt.count({ where: { ip, success: false, createdAt: { gte: since } } }),
  ]);
  if (perAccount >= config.loginMaxFailuresPerAccount || perIp >= config.loginMaxFailuresPerIp) {
    const minutes = Math.ceil(config.loginWindowMs / 60_000);
    throw new AppError(429, `登录失败次数过多，请 ${minutes} 分钟后再试`, CODES.LOGIN_RATE_LIMITED);
  }
}

export async function login(db: Db, config: Config, request: FastifyRequest, body: LoginRequest) {
  const ip = request.ip;
  await checkRateLimit(db, config, body.account, ip);
  const user = await db.user.findUnique({ where: { account: body.account } });
  const good = user ? await verifyPassword(body.password, user.passwordHash) : (await burnPasswordCheck(body.password), false);
  await db.loginAttempt.create({ data: { account: body.account, ip, success: good } });
  if (!user || !good) throw new AppError(401, '账号或密码错误', CODES.LOGIN_BAD_CREDENTIALS);
  if (!user.enabled) throw new AppError(403, '账号已停用，请联系管理员', CODES.LOGIN_DISABLED);
  // A type outside 2..9 has no page here; without this check the login created a session that
  // readSession then refused (204), and the call failed with a 500.
  if (!(USER_TYPES as readonly number[]).includes(user.type)) {
    throw new AppError(403, `${SESSION_ERRORS[205]}：该账号不能使用本门户，请联系管理员`, '205');
  }

  // A new session id at every login: a session fixed before sign-in is worth nothing after.
  await request.session.regenerate();
  request.session.userId = user.id;
  request.session.userType = user.type;
  request.session.loginAt = Date.now();
  request.session.fresh = true;
  await request.session.save();
  request.log.info({ userId: user.id, type: user.type }, 'login');
}
