/**
 * Notification mail through the outbox, against a real SMTP server in the test process: a
 * published notice's mail reaches exactly its recipients with a Chinese subject and body, its due
 * date and a deep link under PUBLIC_URL; a refusal is retried after a backoff and then accepted; a
 * message refused on every try ends FAILED with the server's answer; two api instances on one
 * database send each message once; and a message committed while no worker runs (the process died
 * between commit and send) is sent by the next process that starts.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticesApi, notificationsApi } from '@esm/contracts';
import type { Config } from '../src/config.ts';
import { addDays } from '../src/modules/empower/days.ts';
import { cstDay } from '../src/lib/dates.ts';
import { EMAIL_CHANNEL, useChannels } from '../src/modules/notifications/index.ts';
import { CHAINED_TABLES, verifyDeliveries, verifyTable } from '../src/modules/audit/chain.ts';
import { createFileVersion, createGrant, createMaterial, createProductLine, createSupplier, createSupplierUser, linkSupplier, samplePdf, tempStorage, unique } from './factories.ts';
import { buildTestApp, login, openTestDatabase, post, type TestApp } from './helpers.ts';
import { smtpRecorder } from './smtp-recorder.ts';

const smtp = await smtpRecorder();
const files = await tempStorage();
const database = await openTestDatabase();
const db = database.prisma;
const PUBLIC_URL = 'https://esm.example.com';
const mailConfig = (over: Partial<NonNullable<Config['mail']>> = {}): Partial<Config> => ({
  mail: { smtpUrl: smtp.url, from: 'ESM 图纸档案门户 <esm@example.com>', publicUrl: PUBLIC_URL, maxTries: 5, ...over },
});
const apps: TestApp[] = [];
async function app(config: Partial<Config> = mailConfig()) {
  const t = await buildTestApp({ db: database, storage: files.storage, config });
  apps.push(t);
  return t;
}
afterAll(async () => {
  for (const t of apps) await t.close();
  await database.close();
  await smtp.close();
  await files.remove();
});

const today = () => cstDay(new Date());
const pdf = await samplePdf(1);

/** Waits (polling the database, not the clock) until `check` holds. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A notice published by demo3 to `n` fresh suppliers, each with a user that has an address, and
 * one more supplier that supplies the material without a grant (its user must get nothing).
 */
async function publishToSuppliers(t: TestApp, n: number) {
  const line = await createProductLine(db);
  const m = await createMaterial(db, line.code);
  const to: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = await createSupplier(db, `邮件${i}`);
    await linkSupplier(db, s.code, m.code);
    await createGrant(db, s.code, m.code, 'valid');
    const u = await createSupplierUser(database, s.code);
    const address = `${u.account}@example.com`.toLowerCase();
    await db.user.update({ where: { id: u.id }, data: { email: address } });
    to.push(address);
  }
  const outsider = await createSupplier(db, '邮件外');
  await linkSupplier(db, outsider.code, m.code);
  const stranger = await createSupplierUser(database, outsider.code);
  await db.user.update({ where: { id: stranger.id }, data: { email: `${stranger.account}@example.com`.toLowerCase() } });
  const file = await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf, standardCode: `Q/ML-${unique()}`, status: 'EFFECTIVE', version: 'A' });
  const admin = await login(t.app, 'demo3');
  const d = await post(t.app, noticesApi.create.path, { title: '箱体图纸变更', reason: '结构优化', productLineCode: line.code, dueDate: addDays(today(), 5), newFileIds: [file.id] }, admin);
  expect(d.statusCode, d.body).toBe(200);
  const id = d.json().data.id as number;
  const p = await post(t.app, noticesApi.publish.path, { id }, admin);
  expect(p.statusCode, p.body).toBe(200);
  return { id, to: to.sort(), stranger: `${stranger.account}@example.com`.toLowerCase() };
}

const mailsTo = (addresses: string[]) => smtp.received.filter((m) => m.to.some((a) => addresses.includes(a)));
const deliveriesOf = (noticeId: number) => db.notificationDelivery.findMany({ where: { notification: { linkPath: `/esm/supplier/noticeOfChangeOfDrawings?id=${noticeId}` } }, orderBy: { id: 'asc' } });
/** A delivery's chained facts (written by the trigger on its row), oldest first, as `event state tries`; each in the chain, in order. */
async function factsOf(deliveryId: number): Promise<string[]> {
  const rows = await db.notificationDeliveryEvent.findMany({ where: { deliveryId }, orderBy: { id: 'asc' } });
  const seqs = rows.map((r) => r.chainSeq ?? 0);
  expect(seqs.every((s, i) => s > 0 && (i === 0 || s > seqs[i - 1]!)), 'chained in order').toBe(true);
  expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.rowHash ?? ''))).toBe(true);
  return rows.map((r) => `${r.event} ${r.state} ${r.tries}`);
}
const deliveryChain = CHAINED_TABLES.find((c) => c.table === 'notification_delivery_event')!;

describe('mail', () => {
  let first: TestApp;
  beforeAll(async () => {
    first = await app();
  });

  it('a published notice mails each recipient once, in Chinese, with the due date and a deep link; no one else', async () => {
    const n = await publishToSuppliers(first, 2);
    const mails = await until('two mails', async () => (mailsTo(n.to).length >= 2 ? mailsTo(n.to) : false));
    expect(mails.flatMap((m) => m.to).sort()).toEqual(n.to);
    expect(mailsTo([n.stranger])).toEqual([]);
    const mail = mails[0]!;
    expect(mail.subject).toMatch(/^【ESM 图纸档案门户】图纸变更通知 BG-\d{4}-\d{4}：箱体图纸变更$/);
    expect(mail.text).toContain(`截止日期：${addDays(today(), 5)}`);
    expect(mail.text).toContain(`${PUBLIC_URL}/esm/supplier/noticeOfChangeOfDrawings?id=${n.id}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/esm/supplier/noticeOfChangeOfDrawings?id=${n.id}"`);
    expect(mail.raw).not.toMatch(/Content-Disposition:\s*attachment/i);
    const rows = await until('both SENT', async () => {
      const r = await deliveriesOf(n.id);
      return r.length === 2 && r.every((d) => d.state === 'SENT') ? r : false;
    });
    expect(rows.map((d) => d.tries)).toEqual([1, 1]);
    expect(rows[0]!.lastAnswer).toMatch(/^250/);
  });

  it('a refusal is retried after a backoff and then accepted; the delivery records both tries', async () => {
    smtp.refuse(1);
    const before = smtp.refused();
    const n = await publishToSuppliers(first, 1);
    const [row] = await until('SENT after a retry', async () => {
      const r = await deliveriesOf(n.id);
      return r[0]?.state === 'SENT' ? r : false;
    });
    expect(smtp.refused()).toBe(before + 1);
    expect(row!.tries).toBe(2);
    expect(mailsTo(n.to)).toHaveLength(1);
    expect(await factsOf(row!.id)).toEqual(['QUEUED PENDING 0', 'TRIED PENDING 1', 'SENT SENT 2']);
  });

  it('refused on every try, the message ends FAILED with the server’s answer', async () => {
    const strict = await app(mailConfig({ maxTries: 2 }));
    smtp.refuse(1_000);
    try {
      const n = await publishToSuppliers(strict, 1);
      const [row] = await until('FAILED', async () => {
        const r = await deliveriesOf(n.id);
        return r[0]?.state === 'FAILED' ? r : false;
      });
      expect(row!.tries).toBe(2);
      expect(row!.lastAnswer).toMatch(/451/);
      expect(mailsTo(n.to)).toEqual([]);

      // the delivery log shows it to the drawing admins (not to a supplier); 重新发送 once the server accepts again
      smtp.refuse(0);
      const admin = await login(strict.app, 'demo3');
      const log = await post(strict.app, notificationsApi.deliveries.path, { state: 'FAILED', recipient: n.to[0] }, admin);
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json().data).toEqual([expect.objectContaining({ id: row!.id, state: 'FAILED', address: n.to[0], kind: 'NOTICE_PUBLISHED', tries: 2, lastAnswer: expect.stringMatching(/451/) })]);
      expect((await post(strict.app, notificationsApi.deliveries.path, {}, await login(strict.app, 'demo2'))).statusCode).toBe(403);
      // 导出Excel: the same rows as the filtered list, with the server's answer
      const xlsx = await post(strict.app, notificationsApi.exportExcel.path, { state: 'FAILED', recipient: n.to[0] }, admin);
      expect(xlsx.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const lines: string[] = [];
      wb.worksheets[0]!.eachRow((r) => lines.push((r.values as unknown[]).slice(1).join('|')));
      expect(lines[0]).toBe('收件人|账号|邮箱|类型|内容|状态|尝试次数|服务器应答|创建时间|发送时间');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`|${n.to[0]}|图纸变更通知|`);
      expect(lines[1]).toMatch(/\|失败\|2\|.*451/);
      const again = await post(strict.app, notificationsApi.resend.path, { ids: [row!.id] }, admin);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data.queued).toBe(1);
      await until('SENT after 重新发送', async () => (await deliveriesOf(n.id))[0]?.state === 'SENT');
      expect(mailsTo(n.to)).toHaveLength(1);
      const twice = await post(strict.app, notificationsApi.resend.path, { ids: [row!.id] }, admin);
      expect(twice.statusCode).toBe(409);
      // every fact of it is in the chain, 重新发送 included; the row is the latest of them
      expect(await factsOf(row!.id)).toEqual(['QUEUED PENDING 0', 'TRIED PENDING 1', 'FAILED FAILED 2', 'REQUEUED PENDING 0', 'SENT SENT 1']);
      expect((await verifyTable(db, deliveryChain)).problems).toEqual([]);
      expect(await verifyDeliveries(db)).toEqual([]);
    } finally {
      smtp.refuse(0);
    }
  });
});

describe('across processes', () => {
  it('two api instances on one database send each message once', async () => {
    const a = await app();
    await app();
    const n = await publishToSuppliers(a, 6);
    await until('six mails', async () => mailsTo(n.to).length >= 6);
    await until('all SENT', async () => (await deliveriesOf(n.id)).every((d) => d.state === 'SENT'));
    expect(mailsTo(n.to).flatMap((m) => m.to).sort()).toEqual(n.to);
  });

  it('a message committed while no worker runs is sent by the next process that starts', async () => {
    // every worker of this test process stops: as if the api died right after the commit
    for (const t of apps.splice(0)) await t.close();
    const down = await app({});
    useChannels([EMAIL_CHANNEL], { maxTries: 5 }); // the dead process had mail on: its move queued the job
    const n = await publishToSuppliers(down, 1);
    useChannels([]);
    expect((await deliveriesOf(n.id)).map((d) => d.state)).toEqual(['PENDING']);
    expect(mailsTo(n.to)).toEqual([]);
    await app(); // the next start
    await until('sent after the restart', async () => (await deliveriesOf(n.id))[0]?.state === 'SENT');
    expect(mailsTo(n.to)).toHaveLength(1);
  });
});
