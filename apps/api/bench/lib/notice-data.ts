/**
 * The change-notice data set of the notice benchmark: 2,000 suppliers, 2,000 materials
 * (+ one supplied by every supplier), 12,000 standard codes with a history and an effective
 * version, 10,000 notices over the last ~14 months in every state, and their recipients — each
 * notice reaches the suppliers of its materials (~20), and 20 of them go to all 2,000 suppliers.
 * Made in a throwaway database with the app's own migrations, by INSERT … SELECT over
 * generate_series (every choice a function of the row's index, so every run has the same rows,
 * dated relative to the run): about 15 s on the machine of docs/benchmarks.md.
 */
import pg from 'pg';
import { openDatabase } from '../../src/db/database.ts';
import { DEMO_PASSWORD, DEMO_SUPPLIERS, DEMO_USERS, seedReference } from '../../src/db/seed.ts';
import { hashPassword } from '../../src/lib/password.ts';
import { RECOUNT_OPEN_RECIPIENTS_SQL } from '../../src/modules/notices/query.ts';
import { createBenchDatabase, type BenchDatabase } from './postgres.ts';
import { progress } from './types.ts';

export const NOTICE_SHAPE = {
  suppliers: 2_000,
  materials: 2_000,
  /** Materials each supplier supplies (besides the one everybody supplies). */
  perSupplier: 20,
  notices: 10_000,
  /** Every this-many-th notice changes a drawing of the material all suppliers supply. */
  wideEvery: 500,
} as const;

export interface NoticeData extends BenchDatabase {
  /** A notice that went to every supplier (its matrix has 2,000 rows). */
  wideNoticeId: number;
  counts: Record<string, number>;
  seconds: number;
}

const STEPS = (now: Date, hash: string): { label: string; sql: string; params?: unknown[] }[] => {
  const S = NOTICE_SHAPE;
  const nowSql = `'${now.toISOString().replace('T', ' ').replace('Z', '')}'::timestamp`;
  return [
    {
      label: 'product lines',
      sql: `INSERT INTO product_line (code, name, sort) SELECT 'PL' || lpad(i::text, 2, '0'), '产品线' || i, i FROM generate_series(1, 10) i`,
    },
    {
      label: 'materials',
      sql: `INSERT INTO material (code, name, spec, product_line_code, purchaser)
        SELECT 'M' || lpad(i::text, 6, '0'), '物料' || i, '规格' || (i % 37), 'PL' || lpad((1 + i % 10)::text, 2, '0'), '采购员' || (i % 13)
        FROM generate_series(0, ${S.materials}) i`,
    },
    {
      label: 'suppliers',
      sql: `INSERT INTO supplier (code, name) SELECT 'V' || lpad(i::text, 6, '0'), '供应商' || i || '精密制造有限公司' FROM generate_series(3, ${S.suppliers}) i`,
    },
    {
      label: 'supplier users',
      sql: `INSERT INTO app_user (account, name, nick, type, supplier_code, password_hash, updated_at)
        SELECT 'v' || lpad(i::text, 6, '0'), '用户' || i, '供应商' || i || '-用户', 2, 'V' || lpad(i::text, 6, '0'), $1, ${nowSql} FROM generate_series(3, ${S.suppliers}) i`,
      params: [hash],
    },
    {
      // supplier k supplies materials (k·7 + j·97) mod N for j < perSupplier, and M000000, which everybody supplies
      label: 'supply links',
      sql: `INSERT INTO supplier_material (supplier_code, material_code)
        SELECT DISTINCT s.code, 'M' || lpad((1 + (s.k * 7 + j * 97) % ${S.materials})::text, 6, '0')
        FROM (SELECT code, row_number() OVER (ORDER BY code) AS k FROM supplier) s, generate_series(0, ${S.perSupplier - 1}) j
        UNION SELECT code, 'M000000' FROM supplier`,
    },
    {
      label: 'grants (valid)',
      sql: `INSERT INTO empower_grant (supplier_code, material_code, valid_from, valid_until, created_by)
        SELECT supplier_code, material_code, ${nowSql} - interval '400 days', ${nowSql} + interval '400 days', 'bench' FROM supplier_material`,
    },
    {
      // code c: versions A (HISTORY) and B (EFFECTIVE) on material c mod N (codes 0–19: the common material)
      label: 'standard files',
      sql: `INSERT INTO standard_file (standard_code, name, version, version_no, material_code, category, secret_level, status, effective_date,
          uploader_id, uploader_name, file_name, file_size, file_type, sha256, created_at)
        SELECT 'HR-N-' || lpad(c::text, 6, '0'), '图纸' || c, v.version, v.no,
          CASE WHEN c < 20 THEN 'M000000' ELSE 'M' || lpad((1 + c % ${S.materials})::text, 6, '0') END,
          'DRAWING', 'SECRET', v.status, (${nowSql} - (v.no * interval '200 days'))::date, 1, '李娜',
          'HR-N-' || lpad(c::text, 6, '0') || '_' || v.version || '.pdf', 20000, 'pdf', repeat('0', 64), ${nowSql} - (v.no * interval '200 days')
        FROM generate_series(0, ${S.notices + 1999}) c, (VALUES ('A', 1, 'HISTORY'), ('B', 2, 'EFFECTIVE')) v(version, no, status)`,
    },
    {
      // notice i (1 … 10,000), published ~i·60 min after 14 months ago: 5 % drafts, 5 % withdrawn, 20 % closed, the rest published
      label: 'notices',
      sql: `INSERT INTO change_notice (number, title, reason, product_line_code, status, due_date, created_by_id, created_by_name, created_at, updated_at,
          published_at, published_by_name, closed_at, closed_by_name, withdrawn_at, withdrawn_by_name, withdraw_reason)
        SELECT 'BG-B-' || lpad(i::text, 6, '0'), '变更通知' || i || '：结构优化', '原因' || i, m.product_line_code, st.status,
          (t.at + interval '8 hours' + interval '7 days')::date, 1, '李娜', t.at - interval '1 day', t.at,
          CASE WHEN st.status <> 'DRAFT' THEN t.at END, CASE WHEN st.status <> 'DRAFT' THEN '李娜' END,
          CASE WHEN st.status = 'CLOSED' THEN t.at + interval '20 days' END, CASE WHEN st.status = 'CLOSED' THEN '李娜' END,
          CASE WHEN st.status = 'WITHDRAWN' THEN t.at + interval '1 day' END, CASE WHEN st.status = 'WITHDRAWN' THEN '李娜' END,
          CASE WHEN st.status = 'WITHDRAWN' THEN '撤回' END
        FROM generate_series(1, ${S.notices}) i
        CROSS JOIN LATERAL (SELECT ${nowSql} - interval '420 days' + i * interval '60 minutes' AS at) t
        CROSS JOIN LATERAL (SELECT CASE WHEN i % 20 = 0 THEN 'DRAFT' WHEN i % 20 = 1 THEN 'WITHDRAWN' WHEN i % 20 IN (2, 3, 4, 5) THEN 'CLOSED' ELSE 'PUBLISHED' END AS status) st
        JOIN material m ON m.code = CASE WHEN i % ${S.wideEvery} = 250 THEN 'M000000' ELSE 'M' || lpad((1 + (i + 19) % ${S.materials})::text, 6, '0') END
        ORDER BY i`,
    },
    {
      // one change each (code i + 19, or a common-material code for the wide ones); every third notice a second one
      label: 'changes',
      sql: `INSERT INTO notice_change (notice_id, sort, standard_code, material_code, old_file_id, new_file_id)
        SELECT n.id, x.sort, nf.standard_code, nf.material_code, oldf.id, nf.id
        FROM (SELECT id, row_number() OVER (ORDER BY id) AS i FROM change_notice) n
        CROSS JOIN LATERAL (SELECT 0 AS sort, CASE WHEN n.i % ${S.wideEvery} = 250 THEN (n.i / ${S.wideEvery}) % 20 ELSE n.i + 19 END AS c
          UNION ALL SELECT 1, ${S.notices} + 20 + (n.i % 1980) WHERE n.i % 3 = 0 AND n.i % ${S.wideEvery} <> 250) x
        JOIN standard_file nf ON nf.standard_code = 'HR-N-' || lpad(x.c::text, 6, '0') AND nf.version = 'B'
        JOIN standard_file oldf ON oldf.standard_code = nf.standard_code AND oldf.version = 'A'`,
    },
    {
      // the suppliers of each notice's materials; states by a hash of (notice, supplier): 60 % confirmed, 20 % read, 20 % unread
      label: 'recipients',
      sql: `INSERT INTO notice_recipient (notice_id, supplier_code, supplier_name, basis, status, read_at, read_by_account, read_by_name, read_ip,
          confirmed_at, confirmed_by_account, confirmed_by_name, confirmed_ip)
        SELECT r.notice_id, r.supplier_code, s.name,
          jsonb_build_array(jsonb_build_object('materialCode', r.material_code, 'materialName', '物料', 'validUntil', to_char(${nowSql} + interval '400 days', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
          st.status,
          CASE WHEN st.status <> 'UNREAD' THEN r.published_at + interval '1 day' END, CASE WHEN st.status <> 'UNREAD' THEN u.account END,
          CASE WHEN st.status <> 'UNREAD' THEN u.nick END, CASE WHEN st.status <> 'UNREAD' THEN '10.1.2.3' END,
          CASE WHEN st.status = 'CONFIRMED' THEN r.published_at + interval '2 days' END, CASE WHEN st.status = 'CONFIRMED' THEN u.account END,
          CASE WHEN st.status = 'CONFIRMED' THEN u.nick END, CASE WHEN st.status = 'CONFIRMED' THEN '10.1.2.3' END
        FROM (SELECT DISTINCT ON (n.id, sm.supplier_code) n.id AS notice_id, n.status AS notice_status, n.published_at, sm.supplier_code, c.material_code
              FROM change_notice n JOIN notice_change c ON c.notice_id = n.id JOIN supplier_material sm ON sm.material_code = c.material_code
              WHERE n.status <> 'DRAFT' ORDER BY n.id, sm.supplier_code, c.material_code) r
        JOIN supplier s ON s.code = r.supplier_code
        JOIN LATERAL (SELECT account, nick FROM app_user WHERE supplier_code = r.supplier_code ORDER BY id LIMIT 1) u ON true
        CROSS JOIN LATERAL (SELECT CASE WHEN r.notice_status = 'WITHDRAWN' THEN 'UNREAD'
              WHEN abs(hashtext(r.notice_id || r.supplier_code)) % 10 < 6 THEN 'CONFIRMED'
              WHEN abs(hashtext(r.notice_id || r.supplier_code)) % 10 < 8 THEN 'READ' ELSE 'UNREAD' END AS status) st`,
    },
    { label: 'open-recipient counters', sql: RECOUNT_OPEN_RECIPIENTS_SQL },
    {
      label: 'notice numbers',
      sql: `INSERT INTO notice_number (year, last) VALUES (extract(year FROM ${nowSql})::int, ${S.notices})`,
    },
  ];
};

/** A fresh database with the notice data set; dropped at the end of the run (lib/cleanup.ts). */
export async function createNoticeData(): Promise<NoticeData> {
  const t0 = performance.now();
  const bench = await createBenchDatabase();
  progress(`${bench.name}: migrating (the app's migrations), seeding the menu, agreement and demo accounts`);
  const db = await openDatabase({ databaseUrl: bench.url, dataDir: '' });
  const hash = await hashPassword(DEMO_PASSWORD);
  try {
    await db.migrate();
    await seedReference(db.prisma);
    await db.prisma.supplier.createMany({ data: DEMO_SUPPLIERS });
    await db.prisma.user.createMany({ data: DEMO_USERS.map((u) => ({ ...u, passwordHash: hash })) });
  } finally {
    await db.close();
  }
  const c = new pg.Client({ connectionString: bench.url });
  await c.connect();
  try {
    await c.query('SET synchronous_commit = off');
    await c.query(`SET work_mem = '256MB'`);
    for (const step of STEPS(new Date(), hash)) {
      const s = performance.now();
      const res = await c.query(step.sql, step.params);
      progress(
        `${bench.name}: ${step.label}: ${res.rowCount ?? 0} rows, ${((performance.now() - s) / 1000).toFixed(1)} s`,
      );
    }
    await c.query('VACUUM (ANALYZE)');
    const counts: Record<string, number> = {};
    for (const table of [
      'supplier',
      'material',
      'supplier_material',
      'standard_file',
      'change_notice',
      'notice_change',
      'notice_recipient',
    ]) {
      counts[table] = Number((await c.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    }
    const wide = await c.query(
      `SELECT notice_id, count(*)::int AS n FROM notice_recipient GROUP BY notice_id ORDER BY n DESC, notice_id LIMIT 1`,
    );
    const { notice_id: wideNoticeId, n } = wide.rows[0] as { notice_id: number; n: number };
    if (n !== NOTICE_SHAPE.suppliers)
      throw new Error(`the widest notice reaches ${n} suppliers, expected ${NOTICE_SHAPE.suppliers}`);
    return { ...bench, wideNoticeId, counts, seconds: (performance.now() - t0) / 1000 };
  } finally {
    await c.end();
  }
}
