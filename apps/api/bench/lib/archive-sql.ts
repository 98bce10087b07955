/**
 * The statements the api sends for the archive and log pages, written out for `pg`, so the raw
 * side of the archive benchmarks runs exactly what the server runs. Copied from the server's
 * own statements (Postgres log_statement = all while calling each page once) and from the code
 * that builds them: modules/archives/file-query.ts (pageFiles: a deferred-join page and its capped
 * count in one statement, lib/list.ts pageAndCount), modules/logs/service.ts (pageLog: the
 * same), and the session statements every signed-in call makes (plugins/session.ts, plugins/auth.ts). The benchmark
 * checks that each raw page answers the same rows and total as the api before timing it.
 */
import type pg from 'pg';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { TOUCH_INTERVAL_MS } from '../../src/plugins/session.ts';

export interface Query {
  text: string;
  values: unknown[];
}

/** A condition with a `?` where each of its values goes; numbered $1, $2 … in order. */
export type Cond = [sql: string, ...values: unknown[]];

function numbered(conds: Cond[]): { where: string; values: unknown[] } {
  if (!conds.length) return { where: '', values: [] };
  const values: unknown[] = [];
  const sql = conds.map(([text, ...vs]) => {
    let k = 0;
    return text.replace(/\?/g, () => `$${values.push(vs[k++])}`);
  });
  return { where: `WHERE ${sql.join(' AND ')}`, values };
}

/**
 * lib/list.ts containsText on a bigram-indexed column for a text without a run of 3 letters or
 * digits (as `column` contains it, case-insensitively).
 */
export const shortContains = (column: string): string => `(strpos(lower(${column}), lower(?)) > 0 AND text_bigrams(${column}) @> text_bigrams(?::text))`;

const FILE_SELECT = `SELECT sf.id, sf.standard_code, sf.name, sf.version, sf.version_no, sf.material_code,
  m.name AS material_name, m.product_line_code, pl.name AS product_line_name, sf.category, sf.secret_level,
  sf.status, to_char(sf.effective_date, 'YYYY-MM-DD') AS effective_date, sf.uploader_name, sf.file_name,
  sf.file_size, sf.file_type, sf.created_at, sf.obsoleted_at, sf.obsolete_reason, sf.remark
FROM standard_file sf
JOIN material m ON m.code = sf.material_code
JOIN product_line pl ON pl.code = m.product_line_code`;

/** `sql` with every $k renumbered $(k + by): the page's parameters come after the count's, as Prisma numbers them. */
const shifted = (sql: string, by: number) => sql.replace(/\$(\d+)/g, (_, k: string) => `$${Number(k) + by}`);

/** lib/list.ts pageAndCount: a page and its count up to the window's cap, one statement. */
function withCount(page: string, fromWhere: string, countLimit: string): string {
  return `WITH counted AS (
  SELECT count(*)::int AS __total FROM (SELECT 1 ${fromWhere} LIMIT ${countLimit}) AS capped
)
SELECT counted.__total, p.* FROM counted
LEFT JOIN (SELECT page_rows.*, (row_number() OVER ())::int AS __ord FROM (${page}) AS page_rows) AS p ON true
ORDER BY p.__ord`;
}

/** pageFiles with the default order (newest first): the page's ids on standard_file alone, then the rows joined, with the capped count. */
export function filePageQuery(conds: Cond[], page: number, results: number): Query {
  const { where, values } = numbered(conds);
  const n = values.length;
  const pageSql = `WITH page AS (SELECT sf.id FROM standard_file sf ${where} ORDER BY sf.id DESC LIMIT $${n + 1} OFFSET $${n + 2}) ${FILE_SELECT} WHERE sf.id IN (SELECT id FROM page) ORDER BY sf.id DESC`;
  return { text: withCount(shifted(pageSql, n + 1), `FROM standard_file sf ${where}`, `$${n + 1}`), values: [...values, LIST_WINDOW_MAX + 1, ...values, results, (page - 1) * results] };
}

const LOG_COLUMNS = `id, action, outcome, reason, user_account, user_name, user_type, supplier_code, supplier_name,
        file_id, standard_code, file_name, version, material_code, material_name, ip, created_at`;

/** pageLog with the default order (newest first), with the capped count; `conds` start with the action. */
export function logPageQuery(conds: Cond[], page: number, results: number): Query {
  const { where, values } = numbered(conds);
  const n = values.length;
  const pageSql = `SELECT ${LOG_COLUMNS}\n      FROM access_log ${where} ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`;
  return { text: withCount(shifted(pageSql, n + 1), `FROM access_log ${where}`, `$${n + 1}`), values: [...values, LIST_WINDOW_MAX + 1, ...values, results, (page - 1) * results] };
}

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
  const s = (await sql.query({ name: 'esm_session_read', text: SESSION_SQL.read, values: [sid, utc(new Date())] })).rows[0];
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
