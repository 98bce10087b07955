/**
 * Cookie sessions stored in Postgres (table http_session), so any number of api processes
 * behind a load balancer share them. The store is a few lines over the one Prisma
 * client, which keeps one code path for the embedded database and a Postgres server
 * (connect-pg-simple and friends need a `pg` pool, which the embedded PGlite is not).
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import fastifyCookie, { Signer } from '@fastify/cookie';
import fastifySession from '@fastify/session';
// the class the plugin makes each request's session of (the same module: the bundle has one copy)
import LibrarySession from '@fastify/session/lib/session.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/database.ts';
import { readRows } from '../db/rows.ts';
import type { Config } from '../config.ts';

export const SESSION_COOKIE = 'esm_sid';

declare module 'fastify' {
  interface Session {
    userId?: number;
    /** The user type at login: a change afterwards invalidates the session (code 204). */
    userType?: number;
    loginAt?: number;
    /** Set by login only: the one save that may create the row (see PrismaSessionStore.set). */
    fresh?: boolean;
    /**
     * The signed-in user as read with the session row in this request (never stored: `set`
     * drops it). undefined: not read with the session; null: the session's user row is gone.
     */
    _user?: SessionUserRecord | null;
    /** A sign-in at the company's provider in progress (modules/session/company-login.ts). */
    oidc?: PendingSignIn;
    /** How the session signed in: 'oidc' sessions also sign out at the provider. */
    source?: 'password' | 'oidc';
    /** The provider's ID token: the hint of its sign-out. */
    idToken?: string;
  }
}

/** The state, nonce and PKCE verifier of a company sign-in, kept server-side until the hand-off. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** When it started (ms). */
  at: number;
  /** The page to return to once signed in (contracts isReturnPath), if the login page had one. */
  returnTo?: string;
}

/**
 * Set on the session object by the store's `set`: whether this response may (re-)send the
 * session cookie. Only a write that found the row (or created it) may: a request still in
 * flight when the user logged out must not hand the browser back the cookie of the session the
 * logout destroyed — the next page then said 登录超时 instead of leading to the login page.
 */
const COOKIE_CONFIRMED = Symbol('esm.sessionCookieConfirmed');
type Confirmable = { [COOKIE_CONFIRMED]?: boolean };

/** The user behind a session, read in the same statement as the session row. */
export interface SessionUserRecord {
  id: number;
  account: string;
  name: string;
  nick: string;
  type: number;
  enabled: boolean;
  supplierCode: string | null;
  supplierName: string | null;
  /** Sessions signed in before this are over (app_user.sessions_valid_from). */
  sessionsValidFrom: Date | null;
}

interface SessionJoinRow {
  data: Record<string, unknown>;
  u_id: number | null;
  account: string | null;
  name: string | null;
  nick: string | null;
  type: number | null;
  enabled: boolean | null;
  supplier_code: string | null;
  supplier_name: string | null;
  sessions_valid_from: Date | null;
}

type Cb<T = void> = (err?: unknown, value?: T) => void;

/**
 * How much longer than the idle limit a stored expiry reaches, so that it need not be rewritten
 * on every request: a request rewrites it only once less than a full idle period would remain,
 * i.e. at most once per TOUCH_INTERVAL_MS of activity (see PrismaSessionStore.set).
 */
export const TOUCH_INTERVAL_MS = 60_000;

/** JSON with sorted keys: jsonb reorders keys, so a hash must not depend on their order. */
export function stableJson(v: unknown): string {
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON(): unknown }).toJSON();
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  return stableObject(v as Record<string, unknown>);
}

/** An object as stable JSON, but the fields named in `except`. */
function stableObject(o: Record<string, unknown>, except?: ReadonlySet<string>): string {
  // as JSON.stringify: keys whose value is undefined, a function or a symbol are left out
  const keys = Object.keys(o)
    .filter((k) => !except?.has(k) && o[k] !== undefined && typeof o[k] !== 'function' && typeof o[k] !== 'symbol')
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
}

/**
 * @fastify/session tells whether a request changed its session by a hash of it made when the
 * request comes and again before the answer: safe-stable-stringify of the whole session with a
 * replacer leaving out its cookie, then SHA-256 — ~50 µs of a cheap list call's ~0.7 ms of the
 * api's CPU (a --cpu-prof of `pnpm bench -- paired-calls`). Only the equality of the two is ever
 * used, so the same fields as stable JSON (this file's `stableJson`, which the store hashes too),
 * compared as they are, tell the same thing at a fraction of the cost. Its Session class keeps that
 * method under a private symbol: replaced here once, and a version of the library without it
 * stops the start (and the session tests) instead of silently going back to the slow path.
 */
function cheaperChangeCheck(): void {
  const proto = LibrarySession.prototype as unknown as Record<symbol, unknown>;
  const key = Object.getOwnPropertySymbols(proto).find((s) => s.description === 'hash');
  if (!key || typeof proto[key] !== 'function')
    throw new Error(
      '@fastify/session: Session has no [hash] method any more; review cheaperChangeCheck in plugins/session.ts',
    );
  proto[key] = sessionState;
}

const NOT_COMPARED: ReadonlySet<string> = new Set(['cookie', '_user']);

/**
 * What the change check compares: the session's fields but its cookie (which the library leaves out
 * too) and the user record read with it (`_user`, this request's only: never stored, see STORE_FIELDS).
 */
export function sessionState(this: object): string {
  return stableObject(this as Record<string, unknown>, NOT_COMPARED);
}

/**
 * The cookie signer of the sessions, remembering what it computed. @fastify/session checks the
 * cookie's HMAC on every request and then signs the same session id again for the session object
 * (two HMAC-SHA256 a call, ~50 µs of the api's CPU per list call under load — docs/benchmarks.md,
 * "Where the api's CPU goes"). Both are pure functions of the exact string under one secret, so a
 * bounded map of verified cookies and signed ids gives the same answers without the hashing. Only
 * valid signatures are remembered: a forged or stale cookie is checked in full every time.
 */
export class CachedSigner {
  private readonly signer: Signer;
  private readonly signed = new Map<string, string>();
  private readonly verified = new Map<string, { valid: true; renew: boolean; value: string }>();

  constructor(
    secret: string,
    /** Entries kept per map; when full it starts over (a few MB at most). */
    private readonly max = 10_000,
  ) {
    if (secret.length < 32) throw new Error('the session secret must have 32 characters or more');
    this.signer = new Signer(secret);
  }

  sign(value: string): string {
    let out = this.signed.get(value);
    if (out === undefined) {
      out = this.signer.sign(value);
      if (this.signed.size >= this.max) this.signed.clear();
      this.signed.set(value, out);
    }
    return out;
  }

  unsign(signedValue: string): { valid: boolean; renew: boolean; value: string | null } {
    const hit = this.verified.get(signedValue);
    if (hit) return hit;
    const r = this.signer.unsign(signedValue);
    if (r.valid && r.value !== null) {
      if (this.verified.size >= this.max) this.verified.clear();
      this.verified.set(signedValue, { valid: true, renew: r.renew, value: r.value });
    }
    return r;
  }
}

/** A session's own fields (not the cookie, nor what the store keeps beside them), as plain JSON values. */
function sessionContent(session: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(session)) {
    const v = session[k];
    if (v === undefined || typeof v === 'function' || STORE_FIELDS.has(k)) continue;
    out[k] = v;
  }
  return out;
}

/** Kept by the store beside the session's own fields, or never stored (see PrismaSessionStore.set). */
const STORE_FIELDS = new Set(['cookie', 'fresh', '_h', '_exp', '_savedAt', '_user']);

export class PrismaSessionStore {
  constructor(
    private readonly db: Db,
    /** Idle limit. */
    private readonly maxAgeMs: number,
    /** Absolute limit from the login, however active the session. */
    private readonly absoluteMs: number = 12 * 3_600_000,
  ) {}

  /**
   * The session and, in the same statement, its user and the user's supplier: every signed-in
   * call needs all three (plugins/auth.ts), and one joined read instead of three Prisma queries
   * is the largest saving per call (docs/benchmarks.md, archive lists). The user is as fresh as
   * before — read from the database in this request, not cached across requests.
   */
  get(sid: string, cb: Cb<unknown>) {
    readRows<SessionJoinRow>(
      this.db,
      Prisma.sql`SELECT s.data, u.id AS u_id, u.account, u.name, u.nick, u.type, u.enabled, u.supplier_code, sp.name AS supplier_name, u.sessions_valid_from
FROM http_session s
LEFT JOIN app_user u ON u.id = s.user_id
LEFT JOIN supplier sp ON sp.code = u.supplier_code
WHERE s.sid = ${sid} AND s.expires_at > ${new Date()}`,
      'esm_session_read',
    ).then(([row]) => {
      if (!row) return cb(null, null);
      // past the absolute lifetime (a row written before the cap existed): gone
      const loginAt = row.data.loginAt;
      if (typeof loginAt === 'number' && Date.now() >= loginAt + this.absoluteMs) return cb(null, null);
      const user: SessionUserRecord | null =
        row.u_id === null
          ? null
          : {
              id: row.u_id,
              account: row.account!,
              name: row.name!,
              nick: row.nick!,
              type: Number(row.type),
              enabled: row.enabled!,
              supplierCode: row.supplier_code,
              supplierName: row.supplier_name,
              sessionsValidFrom: row.sessions_valid_from,
            };
      cb(null, { ...row.data, _user: user });
    }, cb);
  }

  /**
   * Only a login creates a row. Any other save updates the row if it still exists: a request
   * still in flight when the user logs out (or the session is revoked) must not bring the
   * session back to life by saving it after the delete.
   *
   * The stored expiry decides (the read refuses a row past it), so it must never fall short of
   * the idle limit after any request: an active session may not die early. Rewriting it on every
   * request would cost half the database's work of a plain call (docs/benchmarks.md); instead
   * each write stores TOUCH_INTERVAL_MS more than the idle limit, and a request rewrites the row
   * only when its content changed or less than a full idle period remains (`_exp`, the expiry
   * last written, rides in the row's data). So after every request the row lives at least the
   * idle limit from then — at most TOUCH_INTERVAL_MS longer — with one write per minute of
   * activity. Neither ever reaches past the absolute lifetime (loginAt + absoluteMs).
   */
  set(sid: string, session: { cookie?: unknown; userId?: number; loginAt?: number; fresh?: boolean }, cb: Cb) {
    const { fresh, _h, _exp } = session as Record<string, unknown>;
    // the session's fields as JSON has them (no clone of the whole session and its cookie: this
    // runs on every request); stableJson drops what JSON drops, so the hash is the one stored before
    const content = sessionContent(session as Record<string, unknown>);
    const rest: Record<string, unknown> = { ...content, cookie: session.cookie };
    const hash = createHash('sha1').update(stableJson(content)).digest('base64');
    const now = Date.now();
    const end = this.endOf(rest.loginAt, now);
    const confirm = (ok: boolean) => ((session as Confirmable)[COOKIE_CONFIRMED] = ok);
    // Nothing to write: the cookie the browser holds still reaches the stored expiry (its
    // Max-Age covers TOUCH_INTERVAL_MS too), so none is sent — this request has not seen the row
    // since its read and must not resurrect a cookie a logout has cleared meanwhile.
    if (!fresh && _h === hash && !this.touchDue(session, now)) return (confirm(false), cb());
    const exp = Math.min(now + this.maxAgeMs + TOUCH_INTERVAL_MS, end);
    const expiresAt = new Date(exp);
    const data = JSON.parse(JSON.stringify({ ...rest, _h: hash, _exp: exp })) as object;
    const userId = session.userId ?? null;
    const write = fresh
      ? this.db.session
          .upsert({ where: { sid }, create: { sid, data, expiresAt, userId }, update: { data, expiresAt, userId } })
          .then(() => 1)
      : this.db.session.updateMany({ where: { sid }, data: { data, expiresAt, userId } }).then((r) => r.count);
    write.then((n) => (confirm(n > 0), cb()), cb);
  }

  /** Where a session signed in at `loginAt` ends, however active (a session without one: from now). */
  private endOf(loginAt: unknown, now: number): number {
    return (typeof loginAt === 'number' ? loginAt : now) + this.absoluteMs;
  }

  /**
   * Whether a save now must rewrite the row's expiry: less than a full idle period (or, near the
   * absolute lifetime, less than what remains of it) is left on the expiry last written (`_exp`).
   */
  touchDue(session: { loginAt?: unknown; _exp?: unknown }, now = Date.now()): boolean {
    const needed = Math.min(now + this.maxAgeMs, this.endOf(session.loginAt, now));
    return !(typeof session._exp === 'number' && session._exp >= needed);
  }

  destroy(sid: string, cb: Cb) {
    this.db.session.deleteMany({ where: { sid } }).then(() => cb(), cb);
  }
}

/** The session cookie's attributes as @fastify/session sends them (its Cookie's toJSON). */
const cookieOptions = (session: { cookie: unknown }) =>
  (session.cookie as { toJSON(): NonNullable<Parameters<FastifyReply['setCookie']>[2]> }).toJSON();

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
  const { config, db } = opts;
  const store = new PrismaSessionStore(db, config.sessionMaxAgeMs, config.sessionAbsoluteMs);
  cheaperChangeCheck();
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: new CachedSigner(config.sessionSecret) as never,
    cookieName: SESSION_COOKIE,
    saveUninitialized: false,
    // Not the library's rolling, which saved every session on every request — the store hashing
    // it (and the library again after the save) and the cookie serialised only to be withdrawn
    // below, ~30 µs of a cheap list call's CPU and ~6 KB of its garbage — to write nothing on all
    // but one request a minute. The library saves a session this request changed; the hook below
    // saves one whose expiry is due to be rolled (the store's touchDue), as the store decided before.
    rolling: false,
    store: store as never,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      // as long as the row a write stores: the cookie is re-sent only with a write (see set)
      maxAge: config.sessionMaxAgeMs + TOUCH_INTERVAL_MS,
    },
  });
  // After @fastify/session's onSend (registered above, so it ran first).
  app.addHook('onSend', async (request, reply) => {
    const session = request.session as (typeof request.session & Confirmable) | null;
    if (!session) return;
    // The rolling expiry: an unchanged session of this cookie, not saved above, whose expiry is due
    // — saved as the library's rolling saved it, its cookie sent again only when the row was there
    // (as the library does, not over a plain-HTTP connection when the cookie is Secure).
    if (
      session.encryptedSessionId &&
      request.cookies[SESSION_COOKIE] === session.encryptedSessionId &&
      !session.isSaved() &&
      !(session.cookie.secure === true && request.protocol !== 'https') &&
      store.touchDue(session as { loginAt?: unknown; _exp?: unknown })
    ) {
      await session.save();
      if (session[COOKIE_CONFIRMED])
        reply.setCookie(SESSION_COOKIE, session.encryptedSessionId, cookieOptions(session));
      return;
    }
    // Withdraw a session cookie the store did not confirm. Clearing cookies (empty value) always pass.
    if (session[COOKIE_CONFIRMED] !== false) return;
    const header = reply.getHeader('set-cookie');
    if (header === undefined) return;
    const kept = [header]
      .flat()
      .map(String)
      .filter((c) => !c.startsWith(`${SESSION_COOKIE}=`) || c.startsWith(`${SESSION_COOKIE}=;`));
    if (kept.length) reply.header('set-cookie', kept);
    else reply.removeHeader('set-cookie');
  });
});
