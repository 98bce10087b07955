/**
 * Sign-in from the company home page: the session check brings the
 * provider's hand-off; this completes it and maps the identity to a portal user, or refuses with
 * the session codes of the legacy portal (codes.ts says which is which). Every outcome is logged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CODES, USER_TYPES, isReturnPath, isSupplierType, type SessionErrorCode } from '@esm/contracts';
import type { Config, OidcConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { SESSION_COOKIE, type PendingSignIn } from '../../plugins/session.ts';
import { HANDOFF_TTL_MS, UserinfoError, type Identity, type RelyingParty } from './oidc.ts';
import { claimsOf, handoffErrorText, providerErrorText } from './handoff-reasons.ts';
import { menuOf } from '../menu/index.ts';
import { defaultPathOf } from './service.ts';
import { recordSignIn } from './signins.ts';

/** `returnTo`: the page asked for before the sign-in, when it is one of the user's own pages. */
export type CompanySignIn = { ok: true; returnTo?: string } | { ok: false; code: SessionErrorCode };

class Refusal extends Error {
  constructor(
    readonly code: SessionErrorCode,
    readonly reason: string,
    readonly account = '',
    readonly userId: number | null = null,
  ) {
    super(reason);
  }
}

/**
 * Starts a sign-in: a fresh (anonymous) session holds what the hand-off must match, and the page
 * to return to (only a path of this portal: anything else is dropped, the sign-in goes on).
 */
export async function startCompanySignIn(
  rp: RelyingParty,
  request: FastifyRequest,
  returnTo?: string,
): Promise<string> {
  const { url, pending } = await rp.start();
  await request.session.regenerate();
  request.session.oidc = isReturnPath(returnTo) ? { ...pending, returnTo } : pending;
  request.session.fresh = true;
  await request.session.save();
  return url;
}

/**
 * Takes the session's pending sign-in if the hand-off's state is its own: in one statement, so
 * of two requests bringing the same hand-off (a double submit, a replay) only one gets it.
 */
async function takePending(db: Db, request: FastifyRequest, state: string): Promise<PendingSignIn | undefined> {
  const pending = request.session.oidc;
  if (!pending || pending.state !== state) return undefined;
  const taken =
    await db.$executeRaw`UPDATE http_session SET data = data - 'oidc' WHERE sid = ${request.session.sessionId} AND data->'oidc'->>'state' = ${state}`;
  delete request.session.oidc;
  return taken === 1 ? pending : undefined;
}

function claimText(claims: Record<string, unknown>, name: string | undefined): string | undefined {
  if (!name) return undefined;
  const v = claims[name];
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() || undefined : undefined;
}

/** The portal user behind the identity, per OIDC_* (created on first sign-in when configured). */
async function portalUser(db: Db, cfg: OidcConfig, identity: Identity) {
  const { claims } = identity;
  const account = claimText(claims, cfg.accountClaim);
  const sub = claimText(claims, 'sub');
  if (!account)
    throw new Refusal(202, `身份提供方未给出账号（声明 ${cfg.accountClaim}）${sub ? `，其用户标识为 ${sub}` : ''}`);
  if (account.length > 64)
    throw new Refusal(202, `身份提供方给出的账号超过 64 个字符（声明 ${cfg.accountClaim}）`, account);
  const claimedType = claimText(claims, cfg.typeClaim);
  const type = claimedType === undefined ? undefined : Number(claimedType);
  const supplier = claimText(claims, cfg.supplierClaim);
  let user = await db.user.findUnique({ where: { account } });
  if (!user) {
    if (!cfg.createUsers) throw new Refusal(205, '门户中没有该账号', account);
    if (type === undefined || !(USER_TYPES as readonly number[]).includes(type))
      throw new Refusal(204, `用户类型 ${claimedType ?? '（无）'} 不是门户的用户类型`, account);
    if (isSupplierType(type) && !(supplier && (await db.supplier.findUnique({ where: { code: supplier } })))) {
      throw new Refusal(204, `供应商编码 ${supplier ?? '（无）'} 不存在`, account);
    }
    const name = claimText(claims, cfg.nameClaim) ?? account;
    // No password: the account signs in only through the company's provider.
    user = await db.user.create({
      data: {
        account,
        name: name.slice(0, 100),
        nick: name.slice(0, 100),
        type,
        supplierCode: isSupplierType(type) ? supplier! : null,
        passwordHash: '',
      },
    });
  }
  if (!user.enabled) throw new Refusal(203, '账号已停用', account, user.id);
  if (cfg.typeClaim && type !== user.type)
    throw new Refusal(204, `用户类型不符：身份提供方 ${claimedType ?? '（无）'}，门户 ${user.type}`, account, user.id);
  if (cfg.supplierClaim && isSupplierType(user.type) && supplier !== user.supplierCode) {
    throw new Refusal(
      204,
      `供应商编码不符：身份提供方 ${supplier ?? '（无）'}，门户 ${user.supplierCode ?? '（无）'}`,
      account,
      user.id,
    );
  }
  if (!(USER_TYPES as readonly number[]).includes(user.type))
    throw new Refusal(205, `用户类型 ${user.type} 不能使用本门户`, account, user.id);
  return user;
}

/**
 * `returnTo` when it is the user's landing page or one of their menu's pages — a page left in the
 * login page's ?redirect= by someone else on a shared browser would only say 没有权限.
 */
async function ownPage(db: Db, user: { type: number }, returnTo: string | undefined): Promise<string | undefined> {
  if (!returnTo) return undefined;
  const path = returnTo.split(/[?#]/)[0]!.replace(/\/+$/, '');
  if (path === defaultPathOf(user.type)) return returnTo;
  return (await menuOf(db, user.type)).some((m) => m.router === path) ? returnTo : undefined;
}

/**
 * Completes the hand-off in `params` (the page's query parameters). On success the request holds
 * a fresh session (new id) of the mapped user; on refusal the pending session is gone and its
 * cookie cleared, so the next visit starts clean.
 */
export async function completeCompanySignIn(
  db: Db,
  config: Config & { oidc: OidcConfig },
  rp: RelyingParty,
  request: FastifyRequest,
  reply: FastifyReply,
  params: Record<string, string>,
): Promise<CompanySignIn> {
  const ip = request.ip;
  try {
    const pending = await takePending(db, request, params.state!);
    if (!pending) throw new Refusal(202, '登录回传无效或已使用（state 不符）');
    if (Date.now() - pending.at > HANDOFF_TTL_MS) throw new Refusal(202, '登录回传已过期');
    // the provider's own description is English prose for developers: the code says it exactly
    if (params.error) throw new Refusal(202, `身份提供方拒绝登录：${providerErrorText(params.error)}`);
    let identity: Identity;
    try {
      identity = await rp.complete(params, pending);
    } catch (e) {
      const account = claimText(claimsOf(e) ?? {}, config.oidc.accountClaim) ?? '';
      const stage = e instanceof UserinfoError ? '读取身份提供方的用户信息失败' : '登录回传校验失败';
      throw new Refusal(202, `${stage}：${handoffErrorText(e)}`, account);
    }
    const user = await portalUser(db, config.oidc, identity);
    // A new session id at every sign-in (the pending session's id is discarded).
    await request.session.regenerate();
    request.session.userId = user.id;
    request.session.userType = user.type;
    request.session.loginAt = Date.now();
    request.session.source = 'oidc';
    if (identity.idToken) request.session.idToken = identity.idToken;
    request.session.fresh = true;
    await request.session.save();
    await recordSignIn(db, {
      userId: user.id,
      account: user.account,
      source: 'oidc',
      ip,
      success: true,
      code: CODES.SESSION_OK,
      reason: '公司门户登录成功',
    });
    request.log.info({ userId: user.id, type: user.type, source: 'oidc' }, 'login');
    return { ok: true, returnTo: await ownPage(db, user, pending.returnTo) };
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    await recordSignIn(db, {
      userId: e.userId,
      account: e.account,
      source: 'oidc',
      ip,
      success: false,
      code: String(e.code),
      reason: e.reason,
    });
    request.log.info({ account: e.account, code: e.code, reason: e.reason }, 'company sign-in refused');
    await request.session.destroy();
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { ok: false, code: e.code };
  }
}
