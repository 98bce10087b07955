/**
 * The session statements every signed-in call makes (plugins/session.ts, plugins/auth.ts),
 * written out for `pg`: the list benchmarks' "raw, all statements of the call" runs them around
 * each raw page, and login-menu times them alone. (The raw pages themselves are built by the
 * services' own statement builders: filePageStatement, listPageStatement and friends.)
 */
import type pg from 'pg';
import { TOUCH_INTERVAL_MS } from '../../src/plugins/session.ts';

/** A `timestamp(3)` parameter as Prisma sends it (UTC, no zone). */
export const utc = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

/**
 * What every signed-in call does besides its own work: read the session row with its user and
 * the user's supplier (plugins/session.ts, one joined statement, prepared per connection), and — when less than a
 * full idle period remains on the row (at most once per TOUCH_INTERVAL_MS of activity) — rewrite it with the rolled expiry.
 */
export const SESSION_SQL = {
  read: `SELECT s.data, u.id AS u_id, u.account, u.name, u.nick, u.type, u.enabled, u.supplier_code, sp.name AS supplier_name
FROM http_session s
LEFT JOIN app_user u ON u.id = s.user_id
LEFT JOIN supplier sp ON sp.code = u.supplier_code
WHERE s.sid = $1 AND s.expires_at > $2`,
  touch: `UPDATE "public"."http_session" SET "data" = $1, "expires_at" = $2, "user_id" = $3, "updated_at" = $4 WHERE "public"."http_session"."sid" = $5`,
};

/** Runs `work` between the session statements of one api call, as the server orders them. */
export async function withSessionStatements<T>(sql: pg.Pool, sid: string, work: () => Promise<T>): Promise<T> {
  const s = (await sql.query({ name: 'esm_session_read', text: SESSION_SQL.read, values: [sid, utc(new Date())] }))
    .rows[0];
  if (!s) throw new Error('session row missing');
  const out = await work();
  const now = new Date();
  if (!(Number(s.data?._exp) >= now.getTime() + 7_200_000)) {
    const exp = now.getTime() + 7_200_000 + TOUCH_INTERVAL_MS;
    const data = { ...s.data, _exp: exp };
    await sql.query(SESSION_SQL.touch, [data, utc(new Date(exp)), s.u_id, utc(now), sid]);
  }
  return out;
}
