/**
 * Publishing a change notice to 2,000 suppliers with mail on: 2,000 suppliers, each with one user
 * that has an address, all supplying one material with a valid grant, made by SQL in the
 * benchmark's own database; a real SMTP server in this process (test/smtp-recorder.ts, npm
 * smtp-server on 127.0.0.1) records what it accepts. Measured on the running bundle: the publish
 * call until it answers (its transaction, with 2,000 notifications, outbox rows and their jobs, has
 * committed), then until the SMTP server has accepted the 2,000th mail, and the api process's CPU
 * over each (from /proc, the machine's other load barely moves it).
 */
import pg from 'pg';
import { Pool } from 'undici';
import { apiPost, login } from './lib/api-client.ts';
import { processCpuMs } from './lib/cpu.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { startServer, tempDir } from './lib/server.ts';
import { fmt } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';
import { noticesApi } from '@esm/contracts';
import { smtpRecorder } from '../test/smtp-recorder.ts';

const SUPPLIERS = 2_000;

/** The suppliers, their users with addresses, the material they all supply (valid grants), and the drawing the notice changes. */
const SEED = [
  `INSERT INTO product_line (code, name, sort) VALUES ('PLM', '邮件产品线', 99)`,
  `INSERT INTO material (code, name, spec, product_line_code, purchaser) VALUES ('MMAIL0', '邮件物料', '规格', 'PLM', '采购员')`,
  `INSERT INTO supplier (code, name) SELECT 'VM' || lpad(i::text, 5, '0'), '邮件供应商' || i || '有限公司' FROM generate_series(1, ${SUPPLIERS}) i`,
  `INSERT INTO app_user (account, name, nick, type, supplier_code, email, password_hash, updated_at)
     SELECT 'vm' || lpad(i::text, 5, '0'), '用户' || i, '供应商' || i, 2, 'VM' || lpad(i::text, 5, '0'), 'vm' || lpad(i::text, 5, '0') || '@example.com', 'x', now()
     FROM generate_series(1, ${SUPPLIERS}) i`,
  `INSERT INTO supplier_material (supplier_code, material_code) SELECT code, 'MMAIL0' FROM supplier WHERE code LIKE 'VM%'`,
  `INSERT INTO empower_grant (supplier_code, material_code, valid_from, valid_until, created_by)
     SELECT code, 'MMAIL0', now() - interval '1 day', now() + interval '400 days', 'bench' FROM supplier WHERE code LIKE 'VM%'`,
  `INSERT INTO standard_file (standard_code, name, version, version_no, material_code, category, secret_level, status, effective_date,
       uploader_id, uploader_name, file_name, file_size, file_type, sha256, created_at)
     VALUES ('HR-MAIL-1', '邮件图纸', 'A', 1, 'MMAIL0', 'DRAWING', 'SECRET', 'EFFECTIVE', current_date, 1, '李娜', 'HR-MAIL-1_A.pdf', 20000, 'pdf', repeat('0', 64), now())`,
];

export async function run(_settings: BenchSettings): Promise<Row[]> {
  const db = await createBenchDatabase();
  const smtp = await smtpRecorder();
  const server = await startServer({
    dataDir: tempDir('mail').dir,
    timeoutMs: 600_000,
    databaseUrl: db.url,
    env: {
      SEED_DEMO: 'true',
      SESSION_SECRET: 'bench-session-secret-0123456789-abcdefgh',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'ESM <esm@example.com>',
      PUBLIC_URL: 'https://esm.example.com',
    },
  });
  const pid = server.proc.pid!;
  const http = new Pool(server.base, { connections: 2 });
  const client = new pg.Client({ connectionString: db.url });
  try {
    await client.connect();
    progress(`notice-mail: seeding ${SUPPLIERS} suppliers with users and addresses`);
    for (const sql of SEED) await client.query(sql);
    const fileId = (
      await client.query<{ id: number }>(`SELECT id FROM standard_file WHERE standard_code = 'HR-MAIL-1'`)
    ).rows[0]!.id;
    const cookie = await login(http, 'demo3');
    const due = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const created = await apiPost<{ id: number }>(
      http,
      noticesApi.create.path,
      { title: '邮件基准变更', reason: '基准测试', productLineCode: 'PLM', dueDate: due, newFileIds: [fileId] },
      cookie,
    );
    if (created.status !== 200)
      throw new Error(`create: ${created.status} ${JSON.stringify(created.json).slice(0, 300)}`);
    const id = created.json.data!.id;

    const cpu0 = processCpuMs(pid);
    const t0 = performance.now();
    const published = await apiPost(http, noticesApi.publish.path, { id }, cookie);
    const commitMs = performance.now() - t0;
    const cpuCommit = processCpuMs(pid) - cpu0;
    if (published.status !== 200)
      throw new Error(
        `publish: ${published.status} ${JSON.stringify(published.json).slice(0, 300)}\n${server.output()}`,
      );
    progress(`notice-mail: published in ${(commitMs / 1000).toFixed(2)} s; waiting for ${SUPPLIERS} mails`);
    const deadline = Date.now() + 30 * 60_000;
    while (smtp.received.length < SUPPLIERS) {
      if (Date.now() > deadline)
        throw new Error(`only ${smtp.received.length} of ${SUPPLIERS} mails accepted in 30 min`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const lastMs = performance.now() - t0;
    const cpuAll = processCpuMs(pid) - cpu0;
    const addresses = new Set(smtp.received.flatMap((m) => m.to));
    if (addresses.size !== SUPPLIERS) throw new Error(`${addresses.size} distinct recipients for ${SUPPLIERS} mails`);
    return [
      {
        step: 'publish → answered (committed)',
        recipients: SUPPLIERS,
        seconds: fmt(commitMs / 1000, 2),
        'api CPU s': fmt(cpuCommit / 1000, 2),
      },
      {
        step: 'publish → last mail accepted',
        recipients: SUPPLIERS,
        seconds: fmt(lastMs / 1000, 1),
        'api CPU s': fmt(cpuAll / 1000, 1),
        'mails/s': fmt(SUPPLIERS / (lastMs / 1000), 0),
        'api CPU ms/mail': fmt(cpuAll / SUPPLIERS, 1),
      },
    ];
  } finally {
    await client.end().catch(() => undefined);
    await http.close();
    await server.stop();
    await smtp.close();
    await db.drop();
  }
}
