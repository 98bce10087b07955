/**
 * Cookie sessions stored in Postgres (table http_session), so any number of api processes
 * behind a load balancer share them (design §3). The store is a few lines over the one Prisma
 * client, which keeps one code path for the embedded database and a Postgres server
 * (connect-pg-simple and friends need a `pg` pool, which the embedded PGlite is not).
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';
import fastifySession from '@fastify/session';
import type { FastifyInstance } from 'fastify';
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
  }
}

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
}

type Cb<T = void> = (err?: unknown, value?: T) => void;

/** A session row is rewritten at most this often when nothing in it but the expiry changed. */
export const TOUCH_INTERVAL_MS = 60_000;

/** JSON with sorted keys: jsonb reorders keys, so a hash must not depend on their order. */
function stableJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`).join(',')}}`;
}

export class PrismaSessionStore {
  constructor(
    private readonly db: Db,
    private readonly maxAgeMs: number,
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
      Prisma.sql`SELECT s.data, u.id AS u_id, u.account, u.name, u.nick, u.type, u.enabled, u.supplier_code, sp.name AS supplier_name
FROM http_session s
LEFT JOIN app_user u ON u.id = s.user_id
LEFT JOIN supplier sp ON sp.code = u.supplier_code
WHERE s.sid = ${sid} AND s.expires_at > ${new Date()}`,
      'esm_session_read',
    ).then(([row]) => {
      if (!row) return cb(null, null);
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
            };
      cb(null, { ...row.data, _user: user });
    }, cb);
  }

  /**
   * Only a login creates a row. Any other save updates the row if it still exists: a request
   * still in flight when the user logs out (or the session is revoked) must not bring the
   * session back to life by saving it after the delete.
   *
   * Rolling sessions would rewrite the row on every request (half the database's work of a plain
   * call, docs/benchmarks.md); instead the row is rewritten only when its content changed or its
   * last write is over a minute old, so the stored expiry lags the cookie's by at most a minute.
   */
  set(sid: string, session: { cookie?: { expires?: Date | string | null }; userId?: number; fresh?: boolean }, cb: Cb) {
    const { fresh, _h, _savedAt, _user, ...rest } = JSON.parse(JSON.stringify(session)) as Record<string, unknown>;
    const { cookie: _cookie, ...content } = rest;
    const hash = createHash('sha1').update(stableJson(content)).digest('base64');
    if (!fresh && _h === hash && typeof _savedAt === 'number' && Date.now() - _savedAt < TOUCH_INTERVAL_MS) return cb();
    const expiresAt = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.maxAgeMs);
    const data = { ...rest, _h: hash, _savedAt: Date.now() } as object;
    const userId = session.userId ?? null;
    const write = fresh
      ? this.db.session.upsert({ where: { sid }, create: { sid, data, expiresAt, userId }, update: { data, expiresAt, userId } })
      : this.db.session.updateMany({ where: { sid }, data: { data, expiresAt, userId } });
    write.then(() => cb(), cb);
  }

  destroy(sid: string, cb: Cb) {
    this.db.session.deleteMany({ where: { sid } }).then(() => cb(), cb);
  }
}

export const sessionPlugin = fp(async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
  const { config, db } = opts;
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: config.sessionSecret,
    cookieName: SESSION_COOKIE,
    saveUninitialized: false,
    rolling: true,
    store: new PrismaSessionStore(db, config.sessionMaxAgeMs) as never,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      maxAge: config.sessionMaxAgeMs,
    },
  });

  // Expired rows are useless: sweep them now and then (any process may; it is idempotent).
  // Login attempts matter only inside the rate-limit window: keep a day of them for audit.
  const sweep = setInterval(() => {
    db.session.deleteMany({ where: { expiresAt: { lt: new Date() } } }).catch((err) => app.log.warn({ err }, 'session sweep failed'));
    db.loginAttempt
      .deleteMany({ where: { createdAt: { lt: new Date(Date.now() - Math.max(config.loginWindowMs, 86_400_000)) } } })
      .catch((err) => app.log.warn({ err }, 'login attempt sweep failed'));
  }, 10 * 60_000);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));
});
