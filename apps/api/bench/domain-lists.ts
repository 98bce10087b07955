/**
 * The newer domains' lists ("every list case ≥ 60 % of its raw page query") on the
 * notice benchmark's data set (lib/notice-data.ts: 2,000 suppliers, 2,001 materials, 42,000 valid
 * grants, 24,000 files) plus 20,000 authorisation applications and 20,000 drawing questions made
 * here. Cases, three ways each (lib/list-bench.ts, as notice-lists):
 *  - grants in force (haier/drawingEmpowerArchives/findEmpowerPage): all, and one supplier's;
 *  - authorisation applications: the approver's list (pending first) and a supplier's own;
 *  - drawing questions: the answerers' list and a supplier's own.
 * The raw side sends the statements the services build (grantPageStatement, applicationPageStatement,
 * issueListParts), with the request parsed by the call's own contracts schema.
 */
import pg from 'pg';
import { Pool } from 'undici';
import {
  EMPOWER_DEFAULTS,
  ZApplyPageRequestSchema,
  ZGrantPageRequestSchema,
  ZIssuePageRequestSchema,
  ZSupplierIssuePageRequestSchema,
} from '@esm/contracts';
import { CONNECTION_OPTIONS } from '../src/db/database.ts';
import { listPageStatement } from '../src/lib/list.ts';
import { applicationPageStatement } from '../src/modules/empower/applications.ts';
import { grantPageStatement } from '../src/modules/empower/grant-lists.ts';
import { issueListParts } from '../src/modules/documentIssues/query.ts';
import { login } from './lib/api-client.ts';
import { pageOf, rawPage, runListCases, selectedCases, type ListCase } from './lib/list-bench.ts';
import { createNoticeData } from './lib/notice-data.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { startServer, tempDir } from './lib/server.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const API_POOL = 10;
const SHAPE = { applicationsPerSupplier: 10, issues: 20_000 };

/** Applications and questions over the notice data set, every choice a function of the row's index. */
const STEPS = (now: Date) => {
  const nowSql = `'${now.toISOString().replace('T', ' ').replace('Z', '')}'::timestamp`;
  return [
    {
      // 10 a supplier: 10 % drafts, 20 % awaiting a decision, 50 % approved, 10 % rejected, 10 % withdrawn
      label: 'applications',
      sql: `INSERT INTO empower_application (supplier_code, status, valid_from, valid_until, reason, applicant_id, applicant_account, applicant_name,
          submitted_at, approved_from, approved_until, decider_id, decider_account, decider_name, decided_at, decision_comment, created_at, updated_at)
        SELECT s.code, st.status, (t.at + interval '1 day')::date, (t.at + interval '200 days')::date, '生产需要查看图纸', u.id, u.account, u.nick,
          CASE WHEN st.status <> 'DRAFT' THEN t.at + interval '1 hour' END,
          CASE WHEN st.status = 'APPROVED' THEN (t.at + interval '1 day')::date END, CASE WHEN st.status = 'APPROVED' THEN (t.at + interval '200 days')::date END,
          CASE WHEN st.status IN ('APPROVED', 'REJECTED') THEN 6 END, CASE WHEN st.status IN ('APPROVED', 'REJECTED') THEN 'demo6' END,
          CASE WHEN st.status IN ('APPROVED', 'REJECTED') THEN '陈静' END, CASE WHEN st.status IN ('APPROVED', 'REJECTED') THEN t.at + interval '1 day' END,
          CASE WHEN st.status = 'REJECTED' THEN '资料不全' END, t.at, t.at
        FROM (SELECT code, row_number() OVER (ORDER BY code) AS k FROM supplier) s
        CROSS JOIN generate_series(1, ${SHAPE.applicationsPerSupplier}) j
        CROSS JOIN LATERAL (SELECT ${nowSql} - ((s.k * 13 + j * 101) % 400) * interval '1 day' AS at) t
        CROSS JOIN LATERAL (SELECT CASE (s.k + j) % 10 WHEN 0 THEN 'DRAFT' WHEN 1 THEN 'SUBMITTED' WHEN 2 THEN 'SUBMITTED' WHEN 3 THEN 'REJECTED' WHEN 4 THEN 'WITHDRAWN' ELSE 'APPROVED' END AS status) st
        JOIN LATERAL (SELECT id, account, nick FROM app_user WHERE supplier_code = s.code ORDER BY id LIMIT 1) u ON true
        ORDER BY t.at, s.code, j`,
    },
    {
      // 1–3 of the supplier's materials each
      label: 'application materials',
      sql: `INSERT INTO empower_application_material (application_id, material_code, approved)
        SELECT a.id, sm.material_code, CASE a.status WHEN 'APPROVED' THEN true WHEN 'REJECTED' THEN false END
        FROM empower_application a
        CROSS JOIN LATERAL (SELECT material_code FROM supplier_material WHERE supplier_code = a.supplier_code ORDER BY hashtext(material_code || a.id) LIMIT 1 + a.id % 3) sm`,
    },
    {
      label: 'problem types',
      sql: `INSERT INTO problem_type (name, role, response_days, updated_at) VALUES ('尺寸标注', 'SQE', 3, ${nowSql}), ('技术要求', 'PRODUCT_LINE', 5, ${nowSql}),
        ('材料规格', 'SQE', 3, ${nowSql}), ('版本不一致', 'PRODUCT_LINE', 7, ${nowSql})`,
    },
    {
      // on a file of a material its supplier supplies: 5 % drafts, 20 % pending, 25 % processing, 30 % answered, 20 % closed
      label: 'questions',
      sql: `INSERT INTO document_issue (number, supplier_code, supplier_name, file_id, standard_code, version, material_code, product_line_code, problem_type_id,
          title, description, status, asked_by_id, asked_by_account, asked_by_name, assignee_id, assignee_name, due_date, submitted_at, answered_at, closed_at, created_at, updated_at)
        SELECT 'WT-' || lpad(i::text, 7, '0'), sm.supplier_code, s.name, f.id, f.standard_code, f.version, f.material_code, m.product_line_code, pt.id,
          '图纸问题 ' || i, '请确认第 ' || (i % 9 + 1) || ' 处标注', st.status, u.id, u.account, u.nick,
          CASE WHEN st.status IN ('PROCESSING', 'ANSWERED', 'CLOSED') THEN h.id END, CASE WHEN st.status IN ('PROCESSING', 'ANSWERED', 'CLOSED') THEN h.name END,
          CASE WHEN st.status <> 'DRAFT' THEN (t.at + interval '5 days')::date END, CASE WHEN st.status <> 'DRAFT' THEN t.at END,
          CASE WHEN st.status IN ('ANSWERED', 'CLOSED') THEN t.at + interval '2 days' END, CASE WHEN st.status = 'CLOSED' THEN t.at + interval '3 days' END, t.at, t.at
        FROM generate_series(1, ${SHAPE.issues}) i
        CROSS JOIN LATERAL (SELECT ${nowSql} - (${SHAPE.issues} - i) * interval '30 minutes' AS at) t
        JOIN (SELECT id, standard_code, version, material_code, row_number() OVER (ORDER BY id) AS rn FROM standard_file WHERE status = 'EFFECTIVE') f
          ON f.rn = 1 + (i * 7919) % (SELECT count(*) FROM standard_file WHERE status = 'EFFECTIVE')
        JOIN material m ON m.code = f.material_code
        CROSS JOIN LATERAL (SELECT supplier_code FROM supplier_material WHERE material_code = f.material_code ORDER BY supplier_code OFFSET i % 3 LIMIT 1) sm
        JOIN supplier s ON s.code = sm.supplier_code
        JOIN LATERAL (SELECT id, account, nick FROM app_user WHERE supplier_code = sm.supplier_code ORDER BY id LIMIT 1) u ON true
        JOIN problem_type pt ON pt.id = (SELECT min(id) FROM problem_type) + i % 4
        JOIN app_user h ON h.account = 'demo5'
        CROSS JOIN LATERAL (SELECT CASE i % 20 WHEN 0 THEN 'DRAFT' WHEN 1 THEN 'PENDING' WHEN 2 THEN 'PENDING' WHEN 3 THEN 'PENDING' WHEN 4 THEN 'PENDING'
          WHEN 5 THEN 'PROCESSING' WHEN 6 THEN 'PROCESSING' WHEN 7 THEN 'PROCESSING' WHEN 8 THEN 'PROCESSING' WHEN 9 THEN 'PROCESSING'
          WHEN 10 THEN 'CLOSED' WHEN 11 THEN 'CLOSED' WHEN 12 THEN 'CLOSED' WHEN 13 THEN 'CLOSED' ELSE 'ANSWERED' END AS status) st`,
    },
  ];
};

export async function run({ seconds, clients }: BenchSettings): Promise<Row[]> {
  const data = await createNoticeData();
  const sql = new pg.Pool({ connectionString: data.url, max: API_POOL, options: CONNECTION_OPTIONS }); // as the api's pool (jit=off)
  const t0 = performance.now();
  for (const step of STEPS(new Date())) {
    const s = performance.now();
    const res = await sql.query(step.sql);
    progress(
      `${data.name}: ${step.label}: ${res.rowCount ?? 0} rows, ${((performance.now() - s) / 1000).toFixed(1)} s`,
    );
  }
  await sql.query('VACUUM (ANALYZE)');
  progress(`applications and questions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const one = async (text: string) => (await sql.query(text)).rows[0] as Record<string, unknown>;
  // the supplier with the most questions (its own user signs in for the supplier cases)
  const busiest =
    (await one(`SELECT i.supplier_code AS code, count(*)::int AS n, min(u.account) AS account FROM document_issue i
    JOIN app_user u ON u.supplier_code = i.supplier_code GROUP BY i.supplier_code ORDER BY n DESC, i.supplier_code LIMIT 1`)) as {
      code: string;
      n: number;
      account: string;
    };
  const apps = (await one(`SELECT count(*)::int AS n FROM empower_application`)).n;
  const inForce = (
    await one(`SELECT count(*)::int AS n FROM empower_grant WHERE revoked_at IS NULL AND valid_until > now()`)
  ).n;
  const rules = EMPOWER_DEFAULTS;

  const grantCase = (name: string, body: Record<string, unknown>): ListCase => {
    const q = ZGrantPageRequestSchema.parse({ page: 1, results: 10, ...body });
    return {
      name,
      who: 'admin',
      path: 'haier/drawingEmpowerArchives/findEmpowerPage',
      body: { page: 1, results: 10, ...body },
      raw: async (c) => pageOf(await rawPage(c, grantPageStatement(q, rules, new Date()))),
    };
  };
  const applicationCase = (
    name: string,
    who: 'approver' | 'supplier',
    scope: { supplierCode: string } | 'approvers',
  ): ListCase => {
    const body = { page: 1, results: 10 };
    const q = ZApplyPageRequestSchema.parse(body);
    return {
      name,
      who,
      path:
        scope === 'approvers'
          ? 'haier/drawingEmpowerApply/findEmpowerApply'
          : 'supplier/drawingEmpowerApply/findEmpowerApply',
      body,
      raw: async (c) => pageOf(await rawPage(c, applicationPageStatement(q, scope))),
    };
  };
  const issueCase = (name: string, who: 'handler' | 'supplier', supplierCode?: string): ListCase => {
    const body = { page: 1, results: 10 };
    const q = supplierCode ? ZSupplierIssuePageRequestSchema.parse(body) : ZIssuePageRequestSchema.parse(body);
    return {
      name,
      who,
      path: supplierCode ? 'supplier/documentissue/paging' : 'haier/documentissue/paging',
      body,
      // the answerers' reader needs only its user id for scope MINE, which these cases do not ask
      raw: async (c) =>
        pageOf(
          await rawPage(
            c,
            listPageStatement(q, issueListParts(supplierCode ? { supplierCode } : { handlerId: 0 }, q, new Date())),
          ),
        ),
    };
  };

  const all: ListCase[] = [
    grantCase(`grants in force, page 1 (all ${inForce}, ending soonest first)`, {}),
    grantCase('grants in force, supplier S001', { supplierCode: 'S001' }),
    applicationCase(
      `authorisation applications, approver's list page 1 (${apps}, pending first)`,
      'approver',
      'approvers',
    ),
    applicationCase(`authorisation applications, a supplier's own (${busiest.code})`, 'supplier', {
      supplierCode: busiest.code,
    }),
    issueCase(`drawing questions, answerers' list page 1 (${SHAPE.issues}, newest first)`, 'handler'),
    issueCase(
      `drawing questions, a supplier's own (${busiest.code}, ${busiest.n} questions)`,
      'supplier',
      busiest.code,
    ),
  ];
  const style = serverStyle();
  progress(`server run with: ${describeStyle(style)}`);
  const server = await startServer({
    dataDir: tempDir('domains').dir,
    databaseUrl: data.url,
    nodeArgs: style.flags,
    env: style.env,
  });
  const http = new Pool(server.base, { connections: clients });
  try {
    const cookies = {
      admin: [] as string[],
      approver: [] as string[],
      handler: [] as string[],
      supplier: [] as string[],
    };
    for (let i = 0; i < clients; i++) {
      cookies.admin.push(await login(http, ['demo3', 'demo7', 'demo8', 'demo9'][i % 4]!));
      cookies.approver.push(await login(http, 'demo6'));
      cookies.handler.push(await login(http, 'demo5'));
      cookies.supplier.push(await login(http, busiest.account));
    }
    return await runListCases({
      cases: selectedCases(all),
      http,
      serverPid: server.proc.pid!,
      sql,
      db: { url: data.url, name: data.name },
      cookies,
      seconds,
      clients,
    });
  } finally {
    await sql.end();
    await http.close();
    await server.stop();
  }
}
