/**
 * The statements that fill the large benchmark database (bench/generate.ts), all generated on
 * the Postgres side (INSERT … SELECT over generate_series), so a million files and five million
 * log rows take minutes, not the hours row-by-row inserts would.
 *
 * Every "random" choice is a hash of the row's index (pg_temp.r), so two generations with the
 * same shape produce the same rows, apart from times, which are relative to the generation.
 *
 * Shape (index → row):
 *  - material m (0 … materials-1): product line m / perLine, code '00' + line + serial;
 *  - supplier s (0 … suppliers-1): 0 and 1 are the demo suppliers S001 and S002 (accounts demo2
 *    and demo4), the others 'V1000xxxx' with one supplier user each; supplier s supplies
 *    materials (s·7919 + k·4729) mod materials for k = 1 … its count (S001: bigSupplierMaterials,
 *    the others 20 … 40), each with a grant (8 % expired, the rest valid for two more years);
 *  - standard code c (0 … codes-1): material (c·7919) mod materials, versions 1 … 1 + c mod 5
 *    (so 333,334 codes make exactly 1,000,000 files); the last version EFFECTIVE (3 % of codes
 *    OBSOLETE), the earlier ones HISTORY; ids in creation order, as uploads would give them;
 *  - log row i: an action (VIEW 50 %, CONFIRM 20 %, DOWNLOAD 18 %, PRINT 11 %, KEEPSECRET 1 %),
 *    by a supplier user (skewed: a few suppliers log far more than most) on a file of a
 *    material that supplier supplies, or by a staff member (8 % of views, downloads, prints),
 *    at a time in the last year (a file younger than that time is acted on after it appeared); 3 % of supplier views,
 *    downloads and prints are refusals. Ids in time order, as the server writes them.
 */
import {
  FILE_TITLES,
  OBSOLETE_REASONS,
  PART_NAMES,
  PART_SPECS,
  PERSON_GIVEN,
  PERSON_SURNAMES,
  PRODUCT_LINES,
  REFUSAL_REASONS,
  REVISION_REMARKS,
  SUPPLIER_BRANDS,
  SUPPLIER_CITIES,
  SUPPLIER_TRADES,
  USER_AGENTS,
} from './big-vocab.ts';

export interface BigShape {
  suppliers: number;
  materials: number;
  /** Standard codes; files = Σ (1 + c mod 5). */
  codes: number;
  logs: number;
  /** How many materials S001 (demo2's supplier) supplies: the "supplier with many materials". */
  bigSupplierMaterials: number;
}

/** The large data set: 2,000 suppliers, 20,000 materials, 1,000,000 files, 5,000,000 log rows. */
export const FULL_SHAPE: BigShape = {
  suppliers: 2000,
  materials: 20_000,
  codes: 333_334,
  logs: 5_000_000,
  bigSupplierMaterials: 300,
};

export function scaledShape(scale: number): BigShape {
  if (scale === 1) return FULL_SHAPE;
  const n = (x: number, min: number) => Math.max(min, Math.round(x * scale));
  // materials stay a multiple of the 20 product lines and below the number of codes
  return {
    suppliers: n(2000, 4),
    materials: n(1000, 1) * 20,
    codes: n(333_334, 2000),
    logs: n(5_000_000, 1000),
    bigSupplierMaterials: n(300, 10),
  };
}

export const fileCount = (codes: number) => {
  let n = 0;
  for (let c = 0; c < codes; c++) n += 1 + (c % 5);
  return n;
};

/** The multiplicative inverse of 7919 modulo `m` (maps a material back to its first code). */
function inverse7919(m: number): number {
  let [g, x, r, y] = [m, 0, 7919 % m, 1];
  while (r) {
    const q = Math.floor(g / r);
    [g, r] = [r, g - q * r];
    [x, y] = [y, x - q * y];
  }
  if (g !== 1) throw new Error(`7919 has no inverse modulo ${m}`);
  return ((x % m) + m) % m;
}

/** A stored file the rows point at (so view, print and download of any row work). */
export interface StoredFile {
  type: 'pdf' | 'png' | 'dxf';
  sha256: string;
  size: number;
}

export interface GenerationInput {
  shape: BigShape;
  /** The generation time: every time in the data is relative to it. */
  now: Date;
  files: StoredFile[];
  /** scrypt hash of the demo password, given to every generated supplier user. */
  passwordHash: string;
  /** Demo suppliers S001, S002 (already inserted) by index 0 and 1. */
  demoSupplierNames: [string, string];
  /** Staff who upload files and appear in the logs (demo3, demo7, demo8, demo9). */
  staff: { id: number; account: string; name: string; type: number }[];
  agreement: { id: number; title: string; version: number };
}

/** Helpers living only in the generating session. */
const FUNCTIONS = [
  // a uniform number in [0, 1) from a row index and a per-choice salt
  `CREATE FUNCTION pg_temp.r(i bigint, salt int) RETURNS float8 IMMUTABLE LANGUAGE sql AS
    $$ SELECT (hashint8extended(i, salt) & 2147483647)::float8 / 2147483648.0 $$`,
  `CREATE FUNCTION pg_temp.pick(arr text[], i bigint, salt int) RETURNS text IMMUTABLE LANGUAGE sql AS
    $$ SELECT arr[1 + floor(pg_temp.r(i, salt) * cardinality(arr))::int] $$`,
  `CREATE FUNCTION pg_temp.mcode(m int, per_line int) RETURNS text IMMUTABLE LANGUAGE sql AS
    $$ SELECT '00' || lpad((m / per_line + 1)::text, 2, '0') || lpad((m % per_line + 1)::text, 6, '0') $$`,
  `CREATE FUNCTION pg_temp.days(d float8) RETURNS interval IMMUTABLE LANGUAGE sql AS $$ SELECT d * interval '1 day' $$`,
];

export interface Step {
  label: string;
  sql: string;
  params?: unknown[];
}

/** The statements, in order, for one pg session (they share temp tables and functions). */
export function generationSteps(input: GenerationInput): Step[] {
  const { shape, now, files, staff, agreement } = input;
  const NS = shape.suppliers;
  const NM = shape.materials;
  const PER = NM / PRODUCT_LINES.length;
  const NC = shape.codes;
  const gen = now.toISOString().replace('T', ' ').replace('Z', ''); // timestamp(3) columns hold UTC
  const G = `'${gen}'::timestamp`;
  const of = (t: StoredFile['type']) => files.filter((f) => f.type === t);
  const shas = (t: StoredFile['type']) =>
    `ARRAY[${of(t)
      .map((f) => `'${f.sha256}'`)
      .join(',')}]::text[]`;
  const sizes = (t: StoredFile['type']) =>
    `ARRAY[${of(t)
      .map((f) => f.size)
      .join(',')}]::int[]`;
  for (const t of ['pdf', 'png', 'dxf'] as const) if (!of(t).length) throw new Error(`no stored ${t} file`);

  return [
    ...FUNCTIONS.map((sql) => ({ label: 'helper function', sql })),
    {
      label: 'product lines',
      sql: `INSERT INTO product_line (code, name, sort) SELECT code, name, ord FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(code, name, ord)`,
      params: [PRODUCT_LINES.map((p) => p[0]), PRODUCT_LINES.map((p) => p[1])],
    },
    {
      label: `${NM} materials`,
      sql: `INSERT INTO material (code, name, spec, product_line_code, purchaser, created_at)
        SELECT pg_temp.mcode(m, ${PER}), pl.name || pg_temp.pick($1, m, 1), pg_temp.pick($2, m, 2), pl.code,
               pg_temp.pick($3, m, 3) || pg_temp.pick($4, m, 4), ${G} - interval '7 years'
        FROM generate_series(0, ${NM - 1}) m JOIN product_line pl ON pl.sort = m / ${PER} + 1`,
      params: [PART_NAMES, PART_SPECS, PERSON_SURNAMES, PERSON_GIVEN],
    },
    {
      label: 'supplier index',
      sql: `CREATE TEMP TABLE sup AS
        SELECT s,
          CASE s WHEN 0 THEN 'S001' WHEN 1 THEN 'S002' ELSE 'V' || (10000000 + s) END AS code,
          CASE s WHEN 0 THEN $1 WHEN 1 THEN $2
            ELSE ($3::text[])[1 + s % 20] || ($4::text[])[1 + (s / 20) % 20] || ($5::text[])[1 + (s / 400) % 10] || '有限公司' END AS name,
          least(${NM}, CASE s WHEN 0 THEN ${shape.bigSupplierMaterials} ELSE 20 + floor(pg_temp.r(s, 10) * 21)::int END) AS n_materials,
          pg_temp.pick($6, s, 5) || pg_temp.pick($7, s, 6) AS person,
          NULL::int AS user_id, NULL::text AS account, NULL::text AS user_name, NULL::smallint AS user_type
        FROM generate_series(0, ${NS - 1}) s`,
      params: [
        ...input.demoSupplierNames,
        SUPPLIER_CITIES,
        SUPPLIER_BRANDS,
        SUPPLIER_TRADES,
        PERSON_SURNAMES,
        PERSON_GIVEN,
      ],
    },
    {
      label: `${NS - 2} suppliers`,
      sql: `INSERT INTO supplier (code, name, created_at) SELECT code, name, ${G} - interval '6 years' FROM sup WHERE s >= 2 ORDER BY s`,
    },
    {
      label: 'supplier users',
      sql: `INSERT INTO app_user (account, name, nick, type, supplier_code, mobile, password_hash, enabled, created_at, updated_at)
        SELECT lower(code), person, ($2::text[])[1 + (s / 20) % 20] || '-' || person, CASE WHEN s % 2 = 0 THEN 2 ELSE 4 END, code,
               '139' || lpad(s::text, 8, '0'), $1, true, ${G} - interval '3 years', ${G}
        FROM sup WHERE s >= 2 ORDER BY s`,
      params: [input.passwordHash, SUPPLIER_BRANDS],
    },
    {
      label: 'supplier index: users',
      sql: `UPDATE sup SET user_id = u.id, account = u.account, user_name = u.nick, user_type = u.type FROM app_user u WHERE u.supplier_code = sup.code`,
    },
    { label: 'supplier index: key', sql: `ALTER TABLE sup ADD PRIMARY KEY (s)` },
    { label: 'supplier index: statistics', sql: `ANALYZE sup` },
    {
      label: 'supplied materials index',
      sql: `CREATE TEMP TABLE sm AS
        SELECT sup.s, ((sup.s::bigint * 7919 + k::bigint * 4729) % ${NM})::int AS m FROM sup, generate_series(1, sup.n_materials) k`,
    },
    {
      label: 'supplier_material',
      sql: `INSERT INTO supplier_material (supplier_code, material_code) SELECT sup.code, pg_temp.mcode(sm.m, ${PER}) FROM sm JOIN sup USING (s)`,
    },
    {
      label: 'grants (8 % expired)',
      sql: `INSERT INTO empower_grant (supplier_code, material_code, valid_from, valid_until, created_by, created_at)
        SELECT code, pg_temp.mcode(m, ${PER}), valid_from, valid_from + span, 'demo3', valid_from
        FROM (
          SELECT sup.code, sm.m,
            CASE WHEN x.expired THEN ${G} - pg_temp.days(1 + x.r2 * 300) - interval '365 days' ELSE ${G} - pg_temp.days(30 + x.r3 * 400) END AS valid_from,
            CASE WHEN x.expired THEN interval '365 days' ELSE pg_temp.days(30 + x.r3 * 400) + pg_temp.days(700 + x.r2 * 400) END AS span
          FROM sm JOIN sup USING (s),
            LATERAL (SELECT pg_temp.r(sm.s::bigint * ${NM} + sm.m, 11) < 0.08 AS expired,
                            pg_temp.r(sm.s::bigint * ${NM} + sm.m, 12) AS r2, pg_temp.r(sm.s::bigint * ${NM} + sm.m, 13) AS r3) x
        ) g ORDER BY valid_from`,
    },
    {
      label: 'agreement acceptances',
      sql: `INSERT INTO keepsecret_acceptance (agreement_id, user_id, supplier_code, accepted_at)
        SELECT ${agreement.id}, user_id, code, ${G} - pg_temp.days(pg_temp.r(s, 14) * 365) FROM sup ORDER BY s`,
    },
    {
      label: `file index (${NC} standard codes)`,
      sql: `CREATE TEMP TABLE gen_sf AS
        WITH codes AS (
          SELECT c, 1 + c % 5 AS v, ((c::bigint * 7919) % ${NM})::int AS m,
            CASE WHEN pg_temp.r(c, 20) < 0.70 THEN 'DRAWING' WHEN pg_temp.r(c, 20) < 0.85 THEN 'STANDARD'
                 WHEN pg_temp.r(c, 20) < 0.95 THEN 'SPEC' ELSE 'OTHER' END AS category,
            ${G} - pg_temp.days(pg_temp.r(c, 22) * 1700) - interval '1 hour' AS last_at,
            pg_temp.days(20 + pg_temp.r(c, 23) * 150) AS gap,
            pg_temp.r(c, 21) < 0.03 AS withdrawn,
            CASE WHEN pg_temp.r(c, 26) < 0.85 THEN 'pdf' WHEN pg_temp.r(c, 26) < 0.93 THEN 'png' ELSE 'dxf' END AS file_type,
            CASE WHEN pg_temp.r(c, 29) < 0.10 THEN 'PUBLIC' WHEN pg_temp.r(c, 29) < 0.50 THEN 'INTERNAL'
                 WHEN pg_temp.r(c, 29) < 0.90 THEN 'SECRET' ELSE 'CONFIDENTIAL' END AS secret_level
          FROM generate_series(0, ${NC - 1}) c
        ), named AS (
          SELECT codes.*, mat.code AS material_code, mat.name AS material_name,
            CASE category WHEN 'DRAWING' THEN 'HR-' || mat.product_line_code || '-D' WHEN 'STANDARD' THEN 'Q/HR-' || mat.product_line_code || '-S'
                          WHEN 'SPEC' THEN 'Q/HR-' || mat.product_line_code || '-J' ELSE 'HR-' || mat.product_line_code || '-T' END
              || lpad(c::text, 6, '0') AS standard_code,
            mat.name || CASE category WHEN 'DRAWING' THEN pg_temp.pick($1, c, 24) WHEN 'STANDARD' THEN pg_temp.pick($2, c, 24)
                                      WHEN 'SPEC' THEN pg_temp.pick($3, c, 24) ELSE pg_temp.pick($4, c, 24) END AS name
          FROM codes JOIN material mat ON mat.code = pg_temp.mcode(codes.m, ${PER})
        )
        SELECT row_number() OVER (ORDER BY last_at - (v - k) * gap, c, k)::int AS id, named.*, k,
          CASE WHEN category IN ('STANDARD', 'SPEC') THEN 'V' || k || '.0' ELSE chr(64 + k) END AS version,
          CASE WHEN k < v THEN 'HISTORY' WHEN withdrawn THEN 'OBSOLETE' ELSE 'EFFECTIVE' END AS status,
          last_at - (v - k) * gap AS created_at
        FROM named, generate_series(1, named.v) k`,
      params: [FILE_TITLES.DRAWING, FILE_TITLES.STANDARD, FILE_TITLES.SPEC, FILE_TITLES.OTHER],
    },
    {
      label: 'standard_file (1 row per version)',
      sql: `INSERT INTO standard_file (id, standard_code, name, version, version_no, material_code, category, secret_level, status, effective_date,
          uploader_id, uploader_name, file_name, file_size, file_type, sha256, remark, created_at, obsoleted_at, obsolete_reason)
        SELECT id, standard_code, name, version, k, material_code, category, secret_level, status,
          (created_at + interval '3 days 8 hours')::date,
          ($1::int[])[1 + u], ($2::text[])[1 + u],
          replace(standard_code, '/', '-') || '_' || name || '_' || version || '.' || file_type,
          CASE file_type WHEN 'pdf' THEN (${sizes('pdf')})[1 + (c + k) % ${of('pdf').length}]
                         WHEN 'png' THEN (${sizes('png')})[1 + (c + k) % ${of('png').length}] ELSE (${sizes('dxf')})[1 + (c + k) % ${of('dxf').length}] END,
          file_type,
          CASE file_type WHEN 'pdf' THEN (${shas('pdf')})[1 + (c + k) % ${of('pdf').length}]
                         WHEN 'png' THEN (${shas('png')})[1 + (c + k) % ${of('png').length}] ELSE (${shas('dxf')})[1 + (c + k) % ${of('dxf').length}] END,
          CASE WHEN k > 1 AND pg_temp.r(c::bigint * 8 + k, 27) < 0.6 THEN pg_temp.pick($3, c::bigint * 8 + k, 28) END,
          created_at,
          CASE WHEN status = 'OBSOLETE' THEN least(created_at + pg_temp.days(30 + pg_temp.r(c, 30) * 300), ${G} - interval '1 hour') END,
          CASE WHEN status = 'OBSOLETE' THEN pg_temp.pick($4, c, 31) END
        FROM (SELECT gen_sf.*, floor(pg_temp.r(c::bigint * 8 + k, 25) * ${staff.length})::int AS u FROM gen_sf) f
        ORDER BY id`,
      params: [staff.map((s) => s.id), staff.map((s) => s.name), REVISION_REMARKS, OBSOLETE_REASONS],
    },
    { label: 'file index: statistics', sql: `ANALYZE gen_sf` },
    {
      label: 'standard_file id sequence',
      sql: `SELECT setval(pg_get_serial_sequence('standard_file', 'id'), (SELECT max(id) FROM standard_file))`,
    },
    { label: 'standard_file statistics', sql: `ANALYZE standard_file` },
    {
      label: `access_log (${shape.logs} rows)`,
      sql: `INSERT INTO access_log (id, action, outcome, reason, user_id, user_account, user_name, user_type, supplier_code, supplier_name,
          file_id, standard_code, file_name, version, material_code, material_name, ip, user_agent, created_at)
        WITH acts AS (
          SELECT i, a.action,
            a.action IN ('VIEW', 'DOWNLOAD', 'PRINT') AND pg_temp.r(i, 31) < 0.08 AS staff,
            floor(pg_temp.r(i, 32) ^ 2 * ${NS})::int AS s
          FROM generate_series(1, ${shape.logs}) i,
            LATERAL (SELECT CASE WHEN x < 0.50 THEN 'VIEW' WHEN x < 0.70 THEN 'CONFIRM' WHEN x < 0.88 THEN 'DOWNLOAD'
                                 WHEN x < 0.99 THEN 'PRINT' ELSE 'KEEPSECRET' END AS action FROM (SELECT pg_temp.r(i, 30) AS x) r) a
        ), mats AS (
          SELECT acts.*, sup.code AS supplier_code, sup.name AS supplier_name, sup.user_id, sup.account, sup.user_name, sup.user_type,
            CASE WHEN staff THEN floor(pg_temp.r(i, 33) * ${NM})::int
                 ELSE ((acts.s::bigint * 7919 + (1 + floor(pg_temp.r(i, 33) * sup.n_materials)::bigint) * 4729) % ${NM})::int END AS m
          FROM acts JOIN sup USING (s)
        ), codes AS (
          SELECT mats.*, c0 + ${NM} * floor(pg_temp.r(i, 34) * ((${NC - 1} - c0) / ${NM} + 1))::int AS c
          FROM mats, LATERAL (SELECT ((mats.m::bigint * ${inverse7919(NM)}) % ${NM})::int AS c0) z
        ), picked AS (
          SELECT codes.*, CASE WHEN pg_temp.r(i, 35) < 0.8 THEN 1 + c % 5 ELSE 1 + floor(pg_temp.r(i, 36) * (1 + c % 5))::int END AS k,
            ${G} - pg_temp.days(pg_temp.r(i, 37) * 365) AS t0,
            NOT staff AND action IN ('VIEW', 'DOWNLOAD', 'PRINT') AND pg_temp.r(i, 39) < 0.03 AS refused,
            floor(pg_temp.r(i, 38) * ${staff.length})::int AS u
          FROM codes
        ), rows AS (
          SELECT p.*, sf.id AS file_id, sf.standard_code, sf.file_name, sf.version, sf.material_code, g.material_name,
            CASE WHEN p.action = 'KEEPSECRET' THEN p.t0
                 WHEN p.t0 >= sf.created_at THEN p.t0
                 ELSE sf.created_at + pg_temp.r(p.i, 40) * (${G} - sf.created_at) END AS t
          FROM picked p JOIN gen_sf g ON g.c = p.c AND g.k = p.k JOIN standard_file sf ON sf.id = g.id
        )
        SELECT row_number() OVER (ORDER BY t, i), action, CASE WHEN refused THEN 'REFUSED' ELSE 'OK' END,
          CASE WHEN refused THEN pg_temp.pick($1, i, 41) END,
          CASE WHEN staff THEN ($2::int[])[1 + u] ELSE user_id END,
          CASE WHEN staff THEN ($3::text[])[1 + u] ELSE account END,
          CASE WHEN staff THEN ($4::text[])[1 + u] ELSE user_name END,
          CASE WHEN staff THEN ($5::int[])[1 + u] ELSE user_type END,
          CASE WHEN staff THEN NULL ELSE supplier_code END,
          CASE WHEN staff THEN NULL ELSE supplier_name END,
          CASE WHEN action = 'KEEPSECRET' THEN NULL ELSE file_id END,
          CASE WHEN action = 'KEEPSECRET' THEN NULL ELSE standard_code END,
          CASE WHEN action = 'KEEPSECRET' THEN $6 ELSE file_name END,
          CASE WHEN action = 'KEEPSECRET' THEN 'V${agreement.version}' ELSE version END,
          CASE WHEN action = 'KEEPSECRET' THEN NULL ELSE material_code END,
          CASE WHEN action = 'KEEPSECRET' THEN NULL ELSE material_name END,
          CASE WHEN staff THEN '172.16.' || (1 + u) || '.' || (10 + u * 7)
               ELSE '10.' || (s / 250) || '.' || (s % 250) || '.' || (1 + floor(pg_temp.r(i, 42) * 200)::int) END,
          CASE WHEN staff THEN ($7::text[])[1] ELSE pg_temp.pick($7, s, 43) END,
          t
        FROM rows ORDER BY t, i`,
      params: [
        REFUSAL_REASONS,
        staff.map((s) => s.id),
        staff.map((s) => s.account),
        staff.map((s) => s.name),
        staff.map((s) => s.type),
        agreement.title,
        USER_AGENTS,
      ],
    },
    {
      label: 'access_log id sequence',
      sql: `SELECT setval(pg_get_serial_sequence('access_log', 'id'), (SELECT max(id) FROM access_log))`,
    },
  ];
}
