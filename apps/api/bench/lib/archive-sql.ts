/**
 * The statements the api sends for the archive and log pages, written out for `pg`, so the raw
 * side of the archive benchmarks runs exactly what the server runs. Copied from the server's
 * own statements (Postgres log_statement = all while calling each page once) and from the code
 * that builds them: modules/archives/file-query.ts (pageFiles: a deferred-join page + a capped
 * count, run together), modules/logs/service.ts (pageLog: page + capped count, together),
 * modules/archives/service.ts (the supplier's scope and confirmations), and the session
 * statements every signed-in call makes (plugins/session.ts, plugins/auth.ts). The benchmark
 * checks that each raw page answers the same rows and total as the api before timing it.
 */
import type pg from 'pg';
import { LIST_WINDOW_MAX } from '@esm/contracts';
import { TOUCH_INTERVAL_MS } from '../../src/plugins/session.ts';

export interface Query {
  text: string;
  values: unknown[];
}

/** A condition with `?` where its one value goes; numbered $1, $2 … in order. */
export type Cond = [sql: string, value: unknown];

function numbered(conds: Cond[]): { where: string; values: unknown[] } {
  if (!conds.length) return { where: '', values: [] };
  return { where: `WHERE ${conds.map(([sql], i) => sql.replace('?', `$${i + 1}`)).join(' AND ')}`, values: conds.map(([, v]) => v) };
}

const FILE_SELECT = `SELECT sf.id, sf.standard_code, sf.name, sf.version, sf.version_no, sf.material_code,
  m.name AS material_name, m.product_line_code, pl.name AS product_line_name, sf.category, sf.secret_level,
  sf.status, to_char(sf.effective_date, 'YYYY-MM-DD') AS effective_date, sf.uploader_name, sf.file_name,
  sf.file_size, sf.file_type, sf.created_at, sf.obsoleted_at, sf.obsolete_reason, sf.remark
FROM standard_file sf
JOIN material m ON m.code = sf.material_code
JOIN product_line pl ON pl.code = m.product_line_code`;

/** pageFiles with the default order (newest first): the page's ids on standard_file alone, then the rows joined; and the capped count. */
export function filePageQueries(conds: Cond[], page: number, results: number): { page: Query; count: Query } {
  const { where, values } = numbered(conds);
  const n = values.length;
  return {
    page: {
      text: `WITH page AS (SELECT sf.id FROM standard_file sf ${where} ORDER BY sf.id DESC LIMIT $${n + 1} OFFSET $${n + 2}) ${FILE_SELECT} WHERE sf.id IN (SELECT id FROM page) ORDER BY sf.id DESC`,
      values: [...values, results, (page - 1) * results],
    },
    count: { text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM standard_file sf ${where} LIMIT $${n + 1}) AS capped`, values: [...values, LIST_WINDOW_MAX + 1] },
  };
}

const LOG_COLUMNS = `id, action, outcome, reason, user_account, user_name, user_type, supplier_code, supplier_name,
        file_id, standard_code, file_name, version, material_code, material_name, ip, created_at`;

/** pageLog with the default order (newest first) and the capped count; `conds` start with the action. */
export function logPageQueries(conds: Cond[], page: number, results: number): { page: Query; count: Query } {
  const { where, values } = numbered(conds);
  const n = values.length;
  return {
    page: { text: `SELECT ${LOG_COLUMNS}\n      FROM access_log ${where} ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...values, results, (page - 1) * results] },
    count: { text: `SELECT count(*)::int AS n FROM (SELECT 1 FROM access_log ${where} LIMIT $${n + 1}) AS capped`, values: [...values, LIST_WINDOW_MAX + 1] },
  };
}

/** A `timestamp(3)` parameter as Prisma sends it (UTC, no zone). */
export const utc = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');

/** visibleMaterialCodes (lib/scope.ts visibleMaterialWhere), as Prisma words it. */
export function visibleMaterialsQuery(supplierCode: string, now: Date): Query {
  return {
    text: `SELECT "public"."material"."code" FROM "public"."material" WHERE (EXISTS(SELECT "t0"."material_code" FROM "public"."supplier_material" AS "t0" WHERE ("t0"."supplier_code" = $1 AND ("public"."material"."code") = ("t0"."material_code") AND "t0"."material_code" IS NOT NULL)) AND EXISTS(SELECT "t1"."material_code" FROM "public"."empower_grant" AS "t1" WHERE ("t1"."supplier_code" = $2 AND "t1"."revoked_at" IS NULL AND "t1"."valid_from" <= $3 AND "t1"."valid_until" > $4 AND ("public"."material"."code") = ("t1"."material_code") AND "t1"."material_code" IS NOT NULL))) OFFSET $5`,
    values: [supplierCode, supplierCode, utc(now), utc(now), 0],
  };
}

/** withConfirmations: this user's latest confirmation of each file on the page. */
export function confirmationsQuery(userId: number, fileIds: number[]): Query {
  const ids = fileIds.map((_, i) => `$${i + 4}`).join(',');
  return {
    text: `SELECT MAX("public"."access_log"."created_at") AS "_max$created_at", "public"."access_log"."file_id" FROM "public"."access_log" WHERE ("public"."access_log"."action" = $1 AND "public"."access_log"."outcome" = $2 AND "public"."access_log"."user_id" = $3 AND "public"."access_log"."file_id" IN (${ids})) GROUP BY "public"."access_log"."file_id" OFFSET $${fileIds.length + 4}`,
    values: ['CONFIRM', 'OK', userId, ...fileIds, 0],
  };
}

/**
 * What every signed-in call does besides its own work: read the session row, the user and its
 * supplier (a statement even when the user has none), and — when the row's last write is a minute
 * old (plugins/session.ts TOUCH_INTERVAL_MS) — rewrite it with the rolled expiry.
 */
export const SESSION_SQL = {
  read: `SELECT "public"."http_session"."sid", "public"."http_session"."data", "public"."http_session"."user_id", "public"."http_session"."expires_at", "public"."http_session"."created_at", "public"."http_session"."updated_at" FROM "public"."http_session" WHERE ("public"."http_session"."sid" = $1 AND 1=1) LIMIT $2 OFFSET $3`,
  user: `SELECT "public"."app_user"."id", "public"."app_user"."account", "public"."app_user"."name", "public"."app_user"."nick", "public"."app_user"."type", "public"."app_user"."supplier_code", "public"."app_user"."mobile", "public"."app_user"."password_hash", "public"."app_user"."enabled", "public"."app_user"."created_at", "public"."app_user"."updated_at" FROM "public"."app_user" WHERE ("public"."app_user"."id" = $1 AND 1=1) LIMIT $2 OFFSET $3`,
  supplier: `SELECT "public"."supplier"."code", "public"."supplier"."name", "public"."supplier"."created_at" FROM "public"."supplier" WHERE "public"."supplier"."code" = $1 OFFSET $2`,
  touch: `UPDATE "public"."http_session" SET "data" = $1, "expires_at" = $2, "user_id" = $3, "updated_at" = $4 WHERE "public"."http_session"."sid" = $5`,
};

/** Runs `work` between the session statements of one api call, as the server orders them. */
export async function withSessionStatements<T>(sql: pg.Pool, sid: string, work: () => Promise<T>): Promise<T> {
  const s = (await sql.query(SESSION_SQL.read, [sid, 1, 0])).rows[0];
  if (!s) throw new Error('session row missing');
  const u = (await sql.query(SESSION_SQL.user, [s.user_id, 1, 0])).rows[0];
  await sql.query(SESSION_SQL.supplier, [u.supplier_code, 0]);
  const out = await work();
  const now = new Date();
  if (!(now.getTime() - Number(s.data?._savedAt) < TOUCH_INTERVAL_MS)) {
    const data = { ...s.data, _savedAt: now.getTime() };
    await sql.query(SESSION_SQL.touch, [data, utc(new Date(now.getTime() + 7_200_000)), s.user_id, utc(now), sid]);
  }
  return out;
}
