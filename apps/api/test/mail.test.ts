/**
 * Notification mail through the outbox, against a real SMTP server in the test process: a
 * published notice's mail reaches exactly its recipients with a Chinese subject and body, its due
 * date and a deep link under PUBLIC_URL; a refusal is retried after a backoff and then accepted; a
 * message refused on every try ends FAILED with the server's answer; two api instances on one
 * database send each message once; a message committed while no worker runs (the process died
 * between commit and send) is sent by the next process that starts; a digest user gets the day's
 * messages in one mail, once however often the run repeats, while an immediate user gets each; and
 * a sent mail is marked 已退回 by an admin or the bounce webhook, only from 已发送.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noticesApi, notificationsApi, PAGES } from '@esm/contracts';
import type { Config } from '../src/config.ts';
import { addDays } from '../src/modules/empower/days.ts';
import { cstDay } from '../src/lib/dates.ts';
import { EMAIL_CHANNEL, useChannels } from '../src/modules/notifications/index.ts';
import { CHAINED_TABLES, verifyDeliveries, verifyTable } from '../src/modules/audit/chain.ts';
import { gatherDigests } from '../src/modules/notifications/digest.ts';
import { notify } from '../src/modules/notifications/service.ts';
import {
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  samplePdf,
  tempStorage,
  unique,
} from './factories.ts';
import { api, buildTestApp, login, openTestDatabase, callApi, type TestApp } from './helpers.ts';
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
  await db.user.update({
    where: { id: stranger.id },
    data: { email: `${stranger.account}@example.com`.toLowerCase() },
  });
  const file = await createFileVersion(db, files.storage, {
    materialCode: m.code,
    type: 'pdf',
    bytes: pdf,
    standardCode: `Q/ML-${unique()}`,
    status: 'EFFECTIVE',
    version: 'A',
  });
  const admin = await login(t.app, 'demo3');
  const d = await callApi(
    t.app,
    noticesApi.create,
    {
      title: '箱体图纸变更',
      reason: '结构优化',
      productLineCode: line.code,
      dueDate: addDays(today(), 5),
      newFileIds: [file.id],
    },
    admin,
  );
  expect(d.statusCode, d.body).toBe(200);
  const id = d.json().data.id as number;
  const p = await callApi(t.app, noticesApi.publish, { id }, admin);
  expect(p.statusCode, p.body).toBe(200);
  return { id, to: to.sort(), stranger: `${stranger.account}@example.com`.toLowerCase() };
}

const mailsTo = (addresses: string[]) => smtp.received.filter((m) => m.to.some((a) => addresses.includes(a)));
const deliveriesOf = (noticeId: number) =>
  db.notificationDelivery.findMany({
    where: { notification: { linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${noticeId}` } },
    orderBy: { id: 'asc' },
  });
/** A delivery's chained facts (written by the trigger on its row), oldest first, as `event state tries`; each in the chain, in order. */
async function factsOf(deliveryId: number): Promise<string[]> {
  const rows = await db.notificationDeliveryEvent.findMany({ where: { deliveryId }, orderBy: { id: 'asc' } });
  const seqs = rows.map((r) => r.chainSeq ?? 0);
  expect(
    seqs.every((s, i) => s > 0 && (i === 0 || s > seqs[i - 1]!)),
    'chained in order',
  ).toBe(true);
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
    expect(mail.text).toContain(`${PUBLIC_URL}${PAGES.noticeOfChangeOfDrawings.path}?id=${n.id}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}${PAGES.noticeOfChangeOfDrawings.path}?id=${n.id}"`);
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
      const log = await callApi(
        strict.app,
        notificationsApi.deliveries,
        { state: 'FAILED', recipient: n.to[0] },
        admin,
      );
      expect(log.statusCode, log.body).toBe(200);
      expect(log.json().data).toEqual([
        expect.objectContaining({
          id: row!.id,
          state: 'FAILED',
          address: n.to[0],
          kind: 'NOTICE_PUBLISHED',
          tries: 2,
          lastAnswer: expect.stringMatching(/451/),
        }),
      ]);
      expect(
        (await callApi(strict.app, notificationsApi.deliveries, {}, await login(strict.app, 'demo2'))).statusCode,
      ).toBe(403);
      // 导出Excel: the same rows as the filtered list, with the server's answer
      const xlsx = await callApi(
        strict.app,
        notificationsApi.exportExcel,
        { state: 'FAILED', recipient: n.to[0] },
        admin,
      );
      expect(xlsx.statusCode).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const lines: string[] = [];
      wb.worksheets[0]!.eachRow((r) => lines.push((r.values as unknown[]).slice(1).join('|')));
      expect(lines[0]).toBe('收件人|账号|邮箱|类型|内容|状态|尝试次数|服务器应答或退信内容|日报编号|创建时间|发送时间');
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(`|${n.to[0]}|图纸变更通知|`);
      expect(lines[1]).toMatch(/\|失败\|2\|.*451/);
      const again = await callApi(strict.app, notificationsApi.resend, { ids: [row!.id] }, admin);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data.queued).toBe(1);
      await until('SENT after 重新发送', async () => (await deliveriesOf(n.id))[0]?.state === 'SENT');
      expect(mailsTo(n.to)).toHaveLength(1);
      const twice = await callApi(strict.app, notificationsApi.resend, { ids: [row!.id] }, admin);
      expect(twice.statusCode).toBe(409);
      // every fact of it is in the chain, 重新发送 included; the row is the latest of them
      expect(await factsOf(row!.id)).toEqual([
        'QUEUED PENDING 0',
        'TRIED PENDING 1',
        'FAILED FAILED 2',
        'REQUEUED PENDING 0',
        'SENT SENT 1',
      ]);
      expect((await verifyTable(db, deliveryChain)).problems).toEqual([]);
      expect(await verifyDeliveries(db)).toEqual([]);
    } finally {
      smtp.refuse(0);
    }
  });
});

describe('daily digest and 已退回', () => {
  const TOKEN = 'bounce-token-0123456789-abcdefghijklmnop';
  let t: TestApp;
  let admin: string;
  let digestUser: { id: number; account: string };
  let now: { id: number; account: string };
  let outsider: { id: number; account: string };
  const addressOf = (u: { account: string }) => `${u.account}@example.com`.toLowerCase();
  const items = [1, 2, 3].map((i) => ({
    kind: 'APPLICATION_DECIDED' as const,
    subject: `图纸授权申请 ${900_000 + i} 已批准`,
    body: `授权有效期至 2030-01-0${i}。`,
    linkPath: `${PAGES.supplierDrawingEmpowerApply.path}?digest=${unique()}`,
  }));

  beforeAll(async () => {
    t = await app(mailConfig({ bounceToken: TOKEN }));
    admin = await login(t.app, 'demo3');
    const S = await createSupplier(db, '汇总');
    const other = await createSupplier(db, '汇总外');
    digestUser = await createSupplierUser(database, S.code);
    now = await createSupplierUser(database, S.code);
    outsider = await createSupplierUser(database, other.code);
    for (const u of [now, outsider]) await db.user.update({ where: { id: u.id }, data: { email: addressOf(u) } });
    // 个人设置: the digest user chooses 每日汇总 with their own address
    const saved = await callApi(
      t.app,
      notificationsApi.saveSettings,
      { email: addressOf(digestUser), mutedKinds: [], digest: true },
      await login(t.app, digestUser.account),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ digest: true, email: addressOf(digestUser) });
    for (const item of items) await db.$transaction((tx) => notify(tx, [digestUser.id, now.id], item));
  });

  it('the immediate user gets N mails, the digest user none until the day’s run, then ONE listing N items with their links; a repeat sends nothing', async () => {
    await until('three immediate mails', async () => mailsTo([addressOf(now)]).length >= 3);
    const waiting = await db.notificationDelivery.findMany({ where: { notification: { userId: digestUser.id } } });
    expect(waiting.map((d) => [d.state, d.viaDigest, d.digestId])).toEqual(items.map(() => ['PENDING', true, null]));
    expect(mailsTo([addressOf(digestUser)])).toEqual([]);
    // the in-app centre is not touched: all three are there at once
    expect(await db.notification.count({ where: { userId: digestUser.id, readAt: null } })).toBe(3);

    // the day's run, twice at once and once more (a retry, a second replica): one digest
    const made =
      (await Promise.all([gatherDigests(db), gatherDigests(db)])).reduce((a, b) => a + b, 0) +
      (await gatherDigests(db));
    expect(made).toBe(1);
    const [mail] = await until('the digest mail', async () =>
      mailsTo([addressOf(digestUser)]).length ? mailsTo([addressOf(digestUser)]) : false,
    );
    expect(mail!.subject).toBe(`【ESM 图纸档案门户】${today()} 通知汇总（3 条）`);
    for (const item of items) {
      expect(mail!.text).toContain(item.subject);
      expect(mail!.text).toContain(`${PUBLIC_URL}${item.linkPath}`);
      expect(mail!.html).toContain(`href="${PUBLIC_URL}${item.linkPath}"`);
    }
    const carried = await until('carried rows SENT', async () => {
      const r = await db.notificationDelivery.findMany({
        where: { notification: { userId: digestUser.id } },
        orderBy: { id: 'asc' },
      });
      return r.every((d) => d.state === 'SENT') ? r : false;
    });
    const digest = await db.notificationDigest.findFirstOrThrow({ where: { userId: digestUser.id } });
    expect(digest).toMatchObject({ state: 'SENT', tries: 1, address: addressOf(digestUser) });
    expect(carried.map((d) => d.digestId)).toEqual([digest.id, digest.id, digest.id]);
    expect(await gatherDigests(db)).toBe(0);
    expect(mailsTo([addressOf(digestUser)])).toHaveLength(1);
    expect(mailsTo([addressOf(now)])).toHaveLength(3);
    expect(mailsTo([addressOf(outsider)])).toEqual([]);

    // the log shows which digest carried each
    const log = await callApi(t.app, notificationsApi.deliveries, { recipient: digestUser.account }, admin);
    expect(log.json().data.map((r) => [r.digestId, r.viaDigest])).toEqual([
      [digest.id, true],
      [digest.id, true],
      [digest.id, true],
    ]);
  });

  it('标记为已退回: only from 已发送, with the bounce text; twice → 409; counted as 未送达 and exported', async () => {
    const [row] = await db.notificationDelivery.findMany({
      where: { notification: { userId: now.id }, state: 'SENT' },
      orderBy: { id: 'asc' },
      take: 1,
    });
    const reason = '550 5.1.1 <x@example.com>: Recipient address rejected: User unknown';
    expect(
      (await callApi(t.app, notificationsApi.bounce, { id: row!.id, reason }, await login(t.app, now.account)))
        .statusCode,
    ).toBe(403);
    const blank = await callApi(t.app, notificationsApi.bounce, { id: row!.id, reason: '  ' }, admin);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual([expect.objectContaining({ field: 'reason', message: '请输入退信内容' })]);
    const done = await callApi(t.app, notificationsApi.bounce, { id: row!.id, reason }, admin);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ id: row!.id, state: 'BOUNCED', lastAnswer: reason });
    const moves = await db.notificationDeliveryMove.findMany({ where: { deliveryId: row!.id } });
    expect(moves).toEqual([
      expect.objectContaining({ fromState: 'SENT', toState: 'BOUNCED', byName: 'demo3', note: reason }),
    ]);
    // and the move is a chained fact, with the bounce text as its answer
    const facts = await db.notificationDeliveryEvent.findMany({
      where: { deliveryId: row!.id },
      orderBy: { id: 'asc' },
    });
    expect(facts.at(-1)).toMatchObject({ event: 'BOUNCED', state: 'BOUNCED', answer: reason });
    const twice = await callApi(t.app, notificationsApi.bounce, { id: row!.id, reason }, admin);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('该记录为「已退回」，只有「已发送」的记录才能标记为已退回');
    expect((await callApi(t.app, notificationsApi.bounce, { id: 2_000_000_000, reason }, admin)).statusCode).toBe(404);

    const undelivered = await callApi(
      t.app,
      notificationsApi.deliveries,
      { state: 'UNDELIVERED', recipient: now.account },
      admin,
    );
    expect(undelivered.json().data.map((r: { id: number; state: string }) => [r.id, r.state])).toEqual([
      [row!.id, 'BOUNCED'],
    ]);
    const xlsx = await callApi(
      t.app,
      notificationsApi.exportExcel,
      { state: 'BOUNCED', recipient: now.account },
      admin,
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const lines: string[] = [];
    wb.worksheets[0]!.eachRow((r) => lines.push((r.values as unknown[]).slice(1).join('|')));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`|已退回|1|${reason}|`);
  });

  it('the bounce webhook: MAIL_BOUNCE_TOKEN as Bearer; a digest’s Message-ID bounces every row it carried', async () => {
    const digest = await db.notificationDigest.findFirstOrThrow({ where: { userId: digestUser.id } });
    expect(digest.messageId).toMatch(/^<.+@.+>$/);
    const report = { messageId: digest.messageId!.slice(1, -1), reason: '552 mailbox full' };
    const call = (auth?: string) =>
      t.app.inject({
        method: 'POST',
        url: api(notificationsApi.bounceReport.path),
        payload: report,
        headers: auth ? { authorization: auth } : {},
      });
    expect((await call()).statusCode).toBe(403);
    expect((await call('Bearer wrong-token-wrong-token-wrong-token')).statusCode).toBe(403);
    const done = await call(`Bearer ${TOKEN}`);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toEqual({ bounced: 3 });
    expect((await db.notificationDelivery.findMany({ where: { digestId: digest.id } })).map((d) => d.state)).toEqual([
      'BOUNCED',
      'BOUNCED',
      'BOUNCED',
    ]);
    expect((await call(`Bearer ${TOKEN}`)).statusCode).toBe(409);
    // a portal without the token has no webhook
    const plain = await app();
    expect(
      (
        await plain.app.inject({
          method: 'POST',
          url: api(notificationsApi.bounceReport.path),
          payload: report,
          headers: { authorization: `Bearer ${TOKEN}` },
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('across processes', () => {
  it('two api instances on one database send each message once', async () => {
    const a = await app();
    await app();
    const n = await publishToSuppliers(a, 6);
    await until('six mails', async () => mailsTo(n.to).length >= 6);
    await until('all SENT', async () => (await deliveriesOf(n.id)).every((d) => d.state === 'SENT'));
    expect(
      mailsTo(n.to)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(n.to);
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
