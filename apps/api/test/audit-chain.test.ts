/**
 * The tamper-evident chain on a database of its own (the run's shared one is changed by other
 * files' fixtures): the demo data chained by the migrations' backfills (row by row and set-based,
 * alike), 50 concurrent downloads and 50 concurrent sign-ins all committed and chained, the facts
 * of notification deliveries chained, and `pnpm audit:verify` naming a row changed, deleted or
 * inserted by SQL — each undone again, after which the chain verifies as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.ts';
import { readMigrations, splitStatements } from '../src/db/migrations.ts';
import { seedDemo } from '../src/db/seed.ts';
import { seedAgreement } from '../src/db/seed-agreement.ts';
import { localStorage } from '../src/lib/storage.ts';
import { CHAINED_TABLES, verifyChains, verifyTable } from '../src/modules/audit/chain.ts';
import { dayHeads } from '../src/modules/audit/heads.ts';
import { sessionApi, API_BASE, auditApi, filesApi } from '@esm/contracts';
import { buildTestApp, callApi, DEMO_PASSWORD, login, pdfPages, type TestApp } from './helpers.ts';
import {
  acceptCurrentAgreement,
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  multipart,
  samplePdf,
  tempStorage,
} from './factories.ts';
import { createDatabase, dropDatabase, withDatabase } from './databases.ts';
import { runCli } from './run-cli.ts';

const serverUrl = inject('serverUrl');
const name = `esm_audit_${Date.now()}_${process.pid}`;
const databaseUrl = withDatabase(serverUrl, name);
const files = await tempStorage();
const seedFiles = await mkdtemp(path.join(tmpdir(), 'esm-audit-seed-'));
let db: Database;
let t: TestApp;
/** a second connection, as someone with write access to the database would use */
let sql: pg.Client;

beforeAll(async () => {
  await createDatabase(serverUrl, name);
  db = await openDatabase({ databaseUrl, dataDir: '' });
  await db.migrate();
  await seedDemo(db.prisma, localStorage(seedFiles));
  await seedAgreement(db.prisma);
  t = await buildTestApp({ db, storage: files.storage });
  sql = new pg.Client({ connectionString: databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await t?.close();
  await db?.close();
  await dropDatabase(serverUrl, name);
  await files.remove();
  await rm(seedFiles, { recursive: true, force: true });
});

/** `pnpm audit:verify` as package.json runs it, with the operator's environment. */
function auditVerify(args: string[] = []): Promise<{ code: number; out: string }> {
  return runCli('src/modules/audit/cli.ts', ['verify', ...args], { DATABASE_URL: databaseUrl });
}

const accessLog = CHAINED_TABLES.find((c) => c.table === 'access_log')!;

describe('the audit chain', () => {
  it('holds the demo data: every chained table has rows, each chain verifies', async () => {
    const report = await verifyChains(db.prisma);
    expect(report.problems).toEqual([]);
    const seeded = ['access_log', 'notice_event', 'empower_audit', 'document_issue_message', 'countersign_event'];
    for (const table of seeded) expect(report.heads.find((h) => h.table === table)!.seq, table).toBeGreaterThan(0);
    // drafts stay outside the chain; everything else is in it
    const drafts = await db.prisma.empowerAudit.count({ where: { toStatus: 'DRAFT' } });
    expect(await db.prisma.empowerAudit.count({ where: { chainSeq: null } })).toBe(drafts);
  });

  it('the migrations backfill rows written before them, in the order they happened, with the hashes the trigger writes', async () => {
    // the demo data as it would stand before the migrations: no chain columns filled
    const migrations = await readMigrations();
    const statements = splitStatements(migrations.find((m) => m.name.endsWith('_audit_chain'))!.sql);
    const from = statements.findIndex((s) => s.includes('CREATE FUNCTION "audit_chain_backfill"'));
    const to = statements.findIndex((s) => s.startsWith('DROP FUNCTION "audit_chain_backfill"'));
    expect(from).toBeGreaterThan(0);
    // a delivery, so the deliveries' chain has rows too (its facts written by the trigger)
    await sql.query(`WITH n AS (INSERT INTO notification (user_id, kind, subject, link_path) SELECT id, 'NOTICE_PUBLISHED', '回填测试', '/esm/x' FROM app_user WHERE account = 'demo2' RETURNING id)
      INSERT INTO notification_delivery (notification_id, channel, address, state, updated_at) SELECT id, 'EMAIL', 'demo2@example.com', 'PENDING', now() FROM n`);
    const hashes = async () => {
      const out: Record<string, unknown[]> = {};
      for (const c of CHAINED_TABLES)
        out[c.table] = (await sql.query(`SELECT id, chain_seq, prev_hash, row_hash FROM ${c.table} ORDER BY id`)).rows;
      return out;
    };
    const written = await hashes();
    expect(written['notification_delivery_event']!.length).toBeGreaterThan(0);
    /** `fn` with the append-only logs open to UPDATE, as the migrations fill them */
    const appendOnly = ['permission_change_log', 'phone_view_log', 'notification_delivery_event'];
    const unlocked = async (fn: () => Promise<void>) => {
      for (const t of appendOnly) await sql.query(`ALTER TABLE ${t} DISABLE TRIGGER ${t}_append_only`);
      await fn();
      for (const t of appendOnly) await sql.query(`ALTER TABLE ${t} ENABLE TRIGGER ${t}_append_only`);
    };
    const unchain = () =>
      unlocked(async () => {
        for (const c of CHAINED_TABLES)
          await sql.query(`UPDATE ${c.table} SET chain_seq = NULL, prev_hash = NULL, row_hash = NULL`);
      });
    const fill = (c: (typeof CHAINED_TABLES)[number]) =>
      unlocked(async () => {
        await sql.query(`SELECT audit_chain_fill($1, $2, $3)`, [c.table, c.happened, c.chained ?? 'true']);
      });

    // the first chain migration's backfill (row by row) for its tables, the set-based one for the deliveries
    await sql.query('BEGIN');
    await unchain();
    await sql.query('ALTER TABLE permission_change_log DISABLE TRIGGER permission_change_log_append_only');
    await sql.query('ALTER TABLE phone_view_log DISABLE TRIGGER phone_view_log_append_only');
    for (const s of statements.slice(from, to + 1)) await sql.query(s);
    await sql.query('ALTER TABLE permission_change_log ENABLE TRIGGER permission_change_log_append_only');
    await sql.query('ALTER TABLE phone_view_log ENABLE TRIGGER phone_view_log_append_only');
    await fill(CHAINED_TABLES.find((c) => c.table === 'notification_delivery_event')!);
    await sql.query('COMMIT');
    expect((await verifyChains(db.prisma)).problems).toEqual([]);
    const rowByRow = await hashes();
    // the trigger and the set-based fill hash alike (the delivery was written in time order)
    expect(rowByRow['notification_delivery_event']).toEqual(written['notification_delivery_event']);
    // in time order: each row happened no earlier than the one before it
    const out = await sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT created_at < lag(created_at) OVER (ORDER BY chain_seq) AS back FROM notice_event WHERE chain_seq IS NOT NULL) x WHERE back`,
    );
    expect(Number(out.rows[0]!.n)).toBe(0);

    // the set-based fill (one UPDATE per table) gives every table the same chain as the row-by-row one
    await sql.query('BEGIN');
    await unchain();
    for (const c of CHAINED_TABLES) await fill(c);
    await sql.query('COMMIT');
    expect(await hashes()).toEqual(rowByRow);
    expect((await verifyChains(db.prisma)).problems).toEqual([]);
  });

  it('50 concurrent downloads all commit: 50 chained log rows and 50 chained deliveries, the chain valid', async () => {
    const pl = await createProductLine(db.prisma);
    const material = await createMaterial(db.prisma, pl.code);
    const supplier = await createSupplier(db.prisma, '链测试');
    await linkSupplier(db.prisma, supplier.code, material.code);
    await createGrant(db.prisma, supplier.code, material.code, 'valid');
    const file = await createFileVersion(db.prisma, files.storage, {
      materialCode: material.code,
      type: 'dwg',
      bytes: Buffer.from('AC1032 chained download'),
    });
    const user = await createSupplierUser(db, supplier.code, 2);
    await acceptCurrentAgreement(db.prisma, user.id, supplier.code);
    const cookie = await login(t.app, user.account);
    const head = (await verifyTable(db.prisma, accessLog)).head.seq;

    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.inject({
          method: 'POST',
          url: `${API_BASE}/${filesApi.download.path}`,
          payload: { id: file.id },
          headers: { cookie },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));

    const rows = await db.prisma.accessLog.findMany({
      where: { fileId: file.id, action: 'DOWNLOAD' },
      orderBy: { chainSeq: 'asc' },
    });
    expect(rows).toHaveLength(50);
    // consecutive places after the head before them, each linked to the one before
    expect(rows.map((r) => r.chainSeq)).toEqual(Array.from({ length: 50 }, (_, i) => head + 1 + i));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.rowHash);
    await expect
      .poll(() => db.prisma.accessDelivery.count({ where: { accessLogId: { in: rows.map((r) => r.id) } } }), {
        timeout: 30_000,
      })
      .toBe(50);
    const deliveries = await db.prisma.accessDelivery.findMany({
      where: { accessLogId: { in: rows.map((r) => r.id) } },
    });
    expect(deliveries.every((d) => d.chainSeq !== null && d.rowHash !== null)).toBe(true);
    expect((await verifyChains(db.prisma)).problems).toEqual([]);
  });

  it('50 concurrent sign-ins all commit: 50 chained sign-in rows, each after the one before', async () => {
    // 50 users from 50 addresses (one account or one address with 50 checks in flight is throttled as guessing)
    const user = await createSupplierUser(db, 'S001', 2);
    const { rows: users } = await sql.query<{ account: string }>(
      `INSERT INTO app_user (account, name, nick, type, supplier_code, password_hash, updated_at)
       SELECT account || '_' || g, name, nick, type, supplier_code, password_hash, now() FROM app_user, generate_series(1, 50) g WHERE id = $1 RETURNING account`,
      [user.id],
    );
    const signIns = CHAINED_TABLES.find((c) => c.table === 'sign_in_log')!;
    // the 50 password checks share the cores: give them the time they take on a busy machine
    const patient = await buildTestApp({ db, storage: files.storage, config: { loginCheckMs: 600_000 } });
    const answers = await Promise.all(
      users.map((u, i) =>
        callApi(patient.app, sessionApi.login, { account: u.account, password: DEMO_PASSWORD }, undefined, {
          remoteAddress: `10.38.0.${i + 1}`,
        }),
      ),
    );
    expect(answers.map((a) => `${a.json().code} ${a.json().message}`)).toEqual(Array(50).fill('10000000 登陆成功'));
    await patient.close();
    const rows = await db.prisma.signInLog.findMany({
      where: { account: { in: users.map((u) => u.account) }, success: true },
      orderBy: { chainSeq: 'asc' },
    });
    expect(rows).toHaveLength(50);
    const seqs = rows.map((r) => r.chainSeq!);
    expect(seqs[49]! - seqs[0]!).toBe(49);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.rowHash);
    expect((await verifyTable(db.prisma, signIns)).problems).toEqual([]);
  }, 300_000);

  it('audit:verify passes, then names a row changed, deleted or inserted by SQL, and passes again once undone', async () => {
    const ok = await auditVerify();
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toMatch(/audit chain verified: \d+ rows in 13 chains/);
    const recorded = await db.prisma.auditVerification.findFirst({ orderBy: { id: 'desc' } });
    expect(recorded).toMatchObject({ source: 'CLI', ok: true });

    const { rows } = await sql.query<{ id: number; chain_seq: number }>(
      `SELECT id, chain_seq FROM access_log l WHERE chain_seq IS NOT NULL AND NOT EXISTS (SELECT 1 FROM access_delivery d WHERE d.access_log_id = l.id) ORDER BY chain_seq LIMIT 2 OFFSET 10`,
    );
    const [a, b] = rows as [{ id: number; chain_seq: number }, { id: number; chain_seq: number }];
    /** puts back rows set aside in `keep`, bypassing the trigger as the deletion did */
    const putBack = async (table: string, keep: string) => {
      await sql.query('BEGIN');
      await sql.query('SET LOCAL session_replication_role = replica');
      await sql.query(`INSERT INTO ${table} SELECT * FROM ${keep}`);
      await sql.query('COMMIT');
    };

    // changed: someone rewrites who downloaded
    const {
      rows: [was],
    } = await sql.query<{ user_name: string }>('SELECT user_name FROM access_log WHERE id = $1', [a.id]);
    await sql.query(`UPDATE access_log SET user_name = '张三' WHERE id = $1`, [a.id]);
    let run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`access_log：id ${a.id}（链位置 ${a.chain_seq}）的内容已被修改`);
    await sql.query('UPDATE access_log SET user_name = $2 WHERE id = $1', [a.id, was!.user_name]);
    expect((await verifyTable(db.prisma, accessLog)).problems).toEqual([]);

    // deleted: a row of the middle goes
    await sql.query(
      'CREATE TEMP TABLE keep_middle AS SELECT * FROM access_log WHERE id = $1'.replace('$1', String(b.id)),
    );
    await sql.query('DELETE FROM access_log WHERE id = $1', [b.id]);
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`access_log：链位置 ${b.chain_seq} 的 1 行已被删除（其后一行 id `);
    await putBack('access_log', 'keep_middle');
    expect((await verifyTable(db.prisma, accessLog)).problems).toEqual([]);

    // inserted: a view that never happened, written past the chain (its trigger bypassed)
    await sql.query('BEGIN');
    await sql.query('SET LOCAL session_replication_role = replica');
    const {
      rows: [fake],
    } = await sql.query<{ id: number }>(
      `INSERT INTO access_log (action, user_id, user_account, user_name, user_type, created_at) SELECT 'VIEW', user_id, user_account, user_name, user_type, created_at FROM access_log WHERE id = $1 RETURNING id`,
      [a.id],
    );
    await sql.query('COMMIT');
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`access_log：id ${fake!.id} 不在链中：绕过链写入`);
    await sql.query('DELETE FROM access_log WHERE id = $1', [fake!.id]);

    // inserted with a place of its own and hashes that do not follow the row before it
    await sql.query('BEGIN');
    await sql.query('SET LOCAL session_replication_role = replica');
    const max = Number((await sql.query<{ m: number }>('SELECT max(chain_seq) AS m FROM access_log')).rows[0]!.m);
    const {
      rows: [forged],
    } = await sql.query<{ id: number }>(
      `INSERT INTO access_log (action, user_id, user_account, user_name, user_type, chain_seq, prev_hash, row_hash)
       SELECT 'VIEW', user_id, user_account, user_name, user_type, $2, repeat('a', 64), repeat('b', 64) FROM access_log WHERE id = $1 RETURNING id`,
      [a.id, max + 1],
    );
    await sql.query('COMMIT');
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`access_log：id ${forged!.id}（链位置 ${max + 1}）不接在前一行之后`);
    await sql.query('DELETE FROM access_log WHERE id = $1', [forged!.id]);
    expect((await verifyTable(db.prisma, accessLog)).problems).toEqual([]);

    // the last row removed (with its delivery): no gap behind it, but the last passed verification's head is gone
    const {
      rows: [tail],
    } = await sql.query<{ id: number; chain_seq: number }>(
      'SELECT id, chain_seq FROM access_log ORDER BY chain_seq DESC LIMIT 1',
    );
    await sql.query(`CREATE TEMP TABLE keep_tail AS SELECT * FROM access_log WHERE id = ${tail!.id}`);
    await sql.query(
      `CREATE TEMP TABLE keep_tail_delivery AS SELECT * FROM access_delivery WHERE access_log_id = ${tail!.id}`,
    );
    await sql.query('DELETE FROM access_delivery WHERE access_log_id = $1', [tail!.id]);
    await sql.query('DELETE FROM access_log WHERE id = $1', [tail!.id]);
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`access_log：上次通过的校验记录的链头（链位置 ${tail!.chain_seq}）已不在链中`);
    await putBack('access_log', 'keep_tail');
    await putBack('access_delivery', 'keep_tail_delivery');
    const again = await auditVerify();
    expect(again.code, again.out).toBe(0);
  }, 240_000);

  it('deliveries of notifications: each fact chained, the row the latest of them; a fact changed or deleted, a row changed or inserted past the trigger → named', async () => {
    const demo2 = await db.prisma.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    const {
      rows: [d],
    } = await sql.query<{ id: number }>(
      `WITH n AS (INSERT INTO notification (user_id, kind, subject, link_path) VALUES ($1, 'NOTICE_PUBLISHED', '链测试通知', '/esm/x') RETURNING id)
       INSERT INTO notification_delivery (notification_id, channel, address, state, updated_at) SELECT id, 'EMAIL', 'demo2@example.com', 'PENDING', now() FROM n RETURNING id`,
      [demo2.id],
    );
    const id = d!.id;
    // the outbox's moves as outbox.ts writes them: a try refused, then one accepted
    await db.prisma.notificationDelivery.updateMany({
      where: { id, state: 'PENDING' },
      data: { tries: { increment: 1 }, lastAnswer: '451 稍后再试' },
    });
    await db.prisma.notificationDelivery.updateMany({
      where: { id, state: 'PENDING' },
      data: { state: 'SENT', tries: { increment: 1 }, lastAnswer: '250 OK', sentAt: new Date() },
    });
    const facts = await db.prisma.notificationDeliveryEvent.findMany({
      where: { deliveryId: id },
      orderBy: { chainSeq: 'asc' },
    });
    expect(facts.map((e) => [e.event, e.state, e.tries, e.answer])).toEqual([
      ['QUEUED', 'PENDING', 0, null],
      ['TRIED', 'PENDING', 1, '451 稍后再试'],
      ['SENT', 'SENT', 2, '250 OK'],
    ]);
    expect(facts[0]).toMatchObject({
      userId: demo2.id,
      kind: 'NOTICE_PUBLISHED',
      subject: '链测试通知',
      address: 'demo2@example.com',
    });
    const [, tried, sent] = facts as [unknown, { id: number; chainSeq: number }, { id: number; chainSeq: number }];
    expect((await auditVerify()).code).toBe(0);

    // the facts are append-only
    await expect(
      sql.query(`UPDATE notification_delivery_event SET answer = '550' WHERE id = $1`, [sent.id]),
    ).rejects.toThrow(/append-only/);
    await expect(sql.query('DELETE FROM notification_delivery_event WHERE id = $1', [tried.id])).rejects.toThrow(
      /append-only/,
    );
    /** a statement with every trigger bypassed, as someone with write access can */
    const bypass = async (q: string, params: unknown[] = []) => {
      await sql.query('BEGIN');
      await sql.query('SET LOCAL session_replication_role = replica');
      const r = await sql.query<{ id: number }>(q, params);
      await sql.query('COMMIT');
      return r.rows;
    };

    // a fact changed: the mail said to have failed
    await bypass(`UPDATE notification_delivery_event SET event = 'FAILED', state = 'FAILED' WHERE id = $1`, [sent.id]);
    let run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`notification_delivery_event：id ${sent.id}（链位置 ${sent.chainSeq}）的内容已被修改`);
    await bypass(`UPDATE notification_delivery_event SET event = 'SENT', state = 'SENT' WHERE id = $1`, [sent.id]);

    // the delivery row changed without its fact
    await bypass(`UPDATE notification_delivery SET state = 'FAILED' WHERE id = $1`, [id]);
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `notification_delivery：id ${id} 的状态与链中最后一条发送记录（id ${sent.id}）不符：已被修改`,
    );
    await bypass(`UPDATE notification_delivery SET state = 'SENT' WHERE id = $1`, [id]);

    // a fact deleted: the refused try
    await sql.query(`CREATE TEMP TABLE keep_fact AS SELECT * FROM notification_delivery_event WHERE id = ${tried.id}`);
    await bypass('DELETE FROM notification_delivery_event WHERE id = $1', [tried.id]);
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(
      `notification_delivery_event：链位置 ${tried.chainSeq} 的 1 行已被删除（其后一行 id ${sent.id}）`,
    );
    await bypass('INSERT INTO notification_delivery_event SELECT * FROM keep_fact');

    // a delivery inserted past the trigger: no fact of it in the chain
    const [forged] = await bypass(
      `INSERT INTO notification_delivery (notification_id, channel, address, state, updated_at) SELECT notification_id, channel, address, 'SENT', now() FROM notification_delivery WHERE id = $1 RETURNING id`,
      [id],
    );
    run = await auditVerify();
    expect(run.code).toBe(1);
    expect(run.out).toContain(`notification_delivery：id ${forged!.id} 没有链中的发送记录：绕过链写入`);
    await sql.query('DELETE FROM notification_delivery WHERE id = $1', [forged!.id]);

    const again = await auditVerify();
    expect(again.code, again.out).toBe(0);
  }, 300_000);

  it('a chain rewritten as a whole verifies on its own, but not against the day heads kept elsewhere', async () => {
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const monthAgo = new Date(Date.now() + 8 * 3600_000 - 40 * 86_400_000).toISOString().slice(0, 10);
    const heads = await dayHeads(db.prisma, monthAgo, today);
    expect(heads.filter((h) => h.table === 'access_log').length).toBeGreaterThan(10);
    const dir = await mkdtemp(path.join(tmpdir(), 'esm-audit-heads-'));
    try {
      const file = path.join(dir, 'heads.json');
      await writeFile(file, JSON.stringify({ kind: 'esm-audit-heads', exportedAt: new Date().toISOString(), heads }));
      const held = await auditVerify(['--heads', file]);
      expect(held.code, held.out).toBe(0);
      expect(held.out).toContain(`${heads.length} recorded heads held`);

      // a history row changed and every hash after it recomputed, the verification record too
      await sql.query('BEGIN');
      const {
        rows: [first],
      } = await sql.query<{ id: number; chain_seq: number }>(
        'SELECT id, chain_seq FROM notice_event ORDER BY chain_seq LIMIT 1',
      );
      await sql.query(`UPDATE notice_event SET detail = '改写' WHERE id = $1`, [first!.id]);
      await sql.query(`UPDATE notice_event SET row_hash = NULL, prev_hash = NULL`);
      const { rows: all } = await sql.query<{ id: number }>(
        'SELECT id FROM notice_event WHERE chain_seq IS NOT NULL ORDER BY chain_seq',
      );
      let prev = '0'.repeat(64);
      for (const r of all) {
        await sql.query('UPDATE notice_event SET prev_hash = $2 WHERE id = $1', [r.id, prev]);
        const {
          rows: [h],
        } = await sql.query<{ h: string }>(
          `SELECT encode(sha256(convert_to($2 || jsonb_strip_nulls(to_jsonb(x) - 'prev_hash' - 'row_hash')::text, 'UTF8')), 'hex') AS h FROM notice_event x WHERE id = $1`,
          [r.id, prev],
        );
        await sql.query('UPDATE notice_event SET row_hash = $2 WHERE id = $1', [r.id, h!.h]);
        prev = h!.h;
      }
      await sql.query('DELETE FROM audit_verification');
      await sql.query('COMMIT');
      const alone = await auditVerify();
      expect(alone.code, alone.out).toBe(0);
      const against = await auditVerify(['--heads', file]);
      expect(against.code).toBe(1);
      expect(against.out).toMatch(/notice_event：链位置 \d+ 与heads\.json（\d{4}-\d\d-\d\d）记录的链头不符/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('审计校验: an internal admin verifies from the page (recorded with who), reads the day heads; a supplier cannot', async () => {
    const staff = await login(t.app, 'demo3');
    const run = await callApi(t.app, auditApi.verify, undefined, staff);
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toMatchObject({
      message: '校验通过：审计链完整',
      data: { ok: true, source: 'PAGE', problems: [] },
    });
    expect(run.json().data.heads).toHaveLength(CHAINED_TABLES.length);
    const status = await callApi(t.app, auditApi.status, undefined, staff);
    expect(status.json().data.last).toMatchObject({
      id: run.json().data.id,
      userName: (await db.prisma.user.findUniqueOrThrow({ where: { account: 'demo3' } })).name,
    });

    const heads = await callApi(t.app, auditApi.dayHeads, {}, staff);
    expect(heads.statusCode).toBe(200);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(heads.json().data.dateTo).toBe(today);
    // today's access_log head is the chain's head (the downloads above were written today)
    const accessToday = heads
      .json()
      .data.heads.find((h: { day: string; table: string }) => h.day === today && h.table === 'access_log');
    expect(accessToday).toMatchObject({
      seq: (await verifyTable(db.prisma, accessLog)).head.seq,
      label: accessLog.label,
    });

    const tooLong = await callApi(t.app, auditApi.dayHeads, { dateFrom: '2020-01-01', dateTo: today }, staff);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual([expect.objectContaining({ field: 'dateFrom' })]);

    const supplier = await login(t.app, 'demo2');
    expect((await callApi(t.app, auditApi.verify, undefined, supplier)).statusCode).toBe(403);
    expect((await callApi(t.app, auditApi.dayHeads, {}, supplier)).statusCode).toBe(403);
  });

  it('泄露追溯: a copy downloaded by demo2 leads back to its row, from the PDF found outside and from its code typed by hand', async () => {
    const pl = await createProductLine(db.prisma);
    const material = await createMaterial(db.prisma, pl.code);
    await linkSupplier(db.prisma, 'S001', material.code);
    await createGrant(db.prisma, 'S001', material.code, 'valid');
    const file = await createFileVersion(db.prisma, files.storage, {
      materialCode: material.code,
      type: 'pdf',
      bytes: await samplePdf(1),
      name: '泄露追溯测试图',
    });
    const demo2 = await db.prisma.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    if (!(await db.prisma.keepsecretAcceptance.findFirst({ where: { userId: demo2.id } })))
      await acceptCurrentAgreement(db.prisma, demo2.id, 'S001');
    const cookie = await login(t.app, 'demo2');
    const dl = (n: number) =>
      Promise.all(
        Array.from({ length: n }, () =>
          t.app.inject({
            method: 'POST',
            url: `${API_BASE}/${filesApi.download.path}`,
            payload: { id: file.id },
            headers: { cookie },
          }),
        ),
      );
    const [copy, other] = await dl(2);
    expect(copy!.statusCode).toBe(200);

    // the watermark carries the code, the row stores it; another copy of the same file has another code
    const text = (await pdfPages(copy!.rawPayload)).join('\n');
    const shown = text.match(/复制码 ([0-9A-Z]{5}-[0-9A-Z]{5})/)?.[1];
    expect(shown, text).toBeTruthy();
    const code = shown!.replace('-', '');
    const row = await db.prisma.accessLog.findUniqueOrThrow({ where: { copyCode: code } });
    expect(row).toMatchObject({ action: 'DOWNLOAD', userAccount: 'demo2', supplierCode: 'S001', fileId: file.id });
    expect(code).not.toContain(String(row.id));
    const otherCode = (await pdfPages(other!.rawPayload)).join('\n').match(/复制码 ([0-9A-Z]{5}-[0-9A-Z]{5})/)?.[1];
    expect(otherCode).toBeTruthy();
    expect(otherCode).not.toBe(shown);

    const staff = await login(t.app, 'demo3');
    const expected = {
      logId: row.id,
      copyCode: code,
      action: 'DOWNLOAD',
      userAccount: 'demo2',
      supplierCode: 'S001',
      supplierName: '青岛海达精密机械有限公司',
      standardCode: file.standardCode,
      version: file.version,
      ip: row.ip,
      chainSeq: row.chainSeq,
      rowHash: row.rowHash,
    };
    // the file found outside, uploaded
    const form = multipart([
      { name: 'file', file: { filename: '外部发现.pdf', bytes: copy!.rawPayload, type: 'application/pdf' } },
    ]);
    const byFile = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/${auditApi.traceFile.path}`,
      payload: form.payload,
      headers: { ...form.headers, cookie: staff },
    });
    expect(byFile.statusCode, byFile.body).toBe(200);
    expect(byFile.json().data).toMatchObject({ ...expected, foundIn: 'PDF' });
    // the code read off a photo and typed by hand: lower case, a space for the dash, an O for the zero
    const typed = `${shown!.slice(0, 5)} ${shown!.slice(6)}`.toLowerCase().replace(/0/g, 'o');
    const byCode = await callApi(t.app, auditApi.traceCode, { code: typed }, staff);
    expect(byCode.statusCode, byCode.body).toBe(200);
    expect(byCode.json().data).toMatchObject({ ...expected, foundIn: 'CODE' });

    // a code of the wrong shape is a field error; a well-formed one nobody has is not found
    const bad = await callApi(t.app, auditApi.traceCode, { code: '12345' }, staff);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'code' })]);
    expect((await callApi(t.app, auditApi.traceCode, { code: 'ZZZZZ-ZZZZZ' }, staff)).statusCode).toBe(404);
    // a PDF without a code (never sent by the portal)
    const plain = multipart([
      { name: 'file', file: { filename: 'x.pdf', bytes: await samplePdf(1), type: 'application/pdf' } },
    ]);
    const none = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/${auditApi.traceFile.path}`,
      payload: plain.payload,
      headers: { ...plain.headers, cookie: staff },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([expect.objectContaining({ field: 'file' })]);
    // suppliers cannot trace
    expect((await callApi(t.app, auditApi.traceCode, { code: shown! }, cookie)).statusCode).toBe(403);
  });
});
