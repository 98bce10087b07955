/**
 * Notifications through the real calls on a real Postgres: each move writes its notifications in
 * its own transaction to exactly the users its domain's scope rules name (never another
 * supplier's), with an outbox row for each user with an address while mail is on; the centre
 * shows a user only their own, and marking read touches only theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { empowerApi, noticesApi, notificationsApi } from '@esm/contracts';
import { addDays } from '../src/modules/empower/days.ts';
import { cstDay } from '../src/lib/dates.ts';
import { EMAIL_CHANNEL, useChannels } from '../src/modules/notifications/index.ts';
import { acceptCurrentAgreement, createFileVersion, createGrant, createMaterial, createProductLine, createSupplier, createSupplierUser, linkSupplier, samplePdf, supplierSupplying, tempStorage, unique } from './factories.ts';
import { buildTestApp, createUser, login, post } from './helpers.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
useChannels([EMAIL_CHANNEL]);
afterAll(async () => {
  useChannels([]);
  await t.close();
  await files.remove();
});

const today = () => cstDay(new Date());
const pdf = await samplePdf(1);

let admin: string; // demo3
let approver: string; // demo6
beforeAll(async () => {
  admin = await login(t.app, 'demo3');
  approver = await login(t.app, 'demo6');
});

/** Who got notifications of `kind` about `link`, by user id (sorted). */
async function recipientsOf(kind: string, linkPath: string) {
  const rows = await db.notification.findMany({ where: { kind, linkPath }, select: { userId: true }, orderBy: { userId: 'asc' } });
  return rows.map((r) => r.userId);
}

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

describe('change notices', () => {
  let notice: { id: number };
  const users: Record<string, { id: number; account: string; password: string }> = {};
  let line: { code: string };

  beforeAll(async () => {
    line = await createProductLine(db);
    const m = await createMaterial(db, line.code);
    const A = await createSupplier(db, '通知甲');
    const B = await createSupplier(db, '通知乙');
    const C = await createSupplier(db, '通知丙'); // supplies the material, but its grant expired
    for (const s of [A, B, C]) await linkSupplier(db, s.code, m.code);
    await createGrant(db, A.code, m.code, 'valid');
    await createGrant(db, B.code, m.code, 'valid');
    await createGrant(db, C.code, m.code, 'expired');
    users.A1 = await createSupplierUser(t.db, A.code);
    users.A2 = await createSupplierUser(t.db, A.code, 4);
    users.Aoff = await createSupplierUser(t.db, A.code);
    await db.user.update({ where: { id: users.Aoff.id }, data: { enabled: false, email: 'off@example.com' } });
    users.B1 = await createSupplierUser(t.db, B.code);
    users.C1 = await createSupplierUser(t.db, C.code);
    await db.user.update({ where: { id: users.A1.id }, data: { email: 'a1@example.com' } });
    await db.user.update({ where: { id: users.B1.id }, data: { email: 'b1@example.com' } });
    await db.user.update({ where: { id: users.C1.id }, data: { email: 'c1@example.com' } });
    const file = await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf, standardCode: `Q/NT-${unique()}`, status: 'EFFECTIVE', version: 'A' });
    const d = await post(t.app, noticesApi.create.path, { title: '门体图纸变更', reason: '结构优化', productLineCode: line.code, dueDate: addDays(today(), 7), newFileIds: [file.id] }, admin);
    expect(d.statusCode, d.body).toBe(200);
    notice = d.json().data;
  });

  it('publish tells the enabled users of each recipient supplier and no one else, in the publish transaction', async () => {
    const res = await post(t.app, noticesApi.publish.path, { id: notice.id }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const link = `/esm/supplier/noticeOfChangeOfDrawings?id=${notice.id}`;
    expect(await recipientsOf('NOTICE_PUBLISHED', link)).toEqual(sorted([users.A1!.id, users.A2!.id, users.B1!.id]));
    const one = await db.notification.findFirstOrThrow({ where: { kind: 'NOTICE_PUBLISHED', linkPath: link, userId: users.A1!.id } });
    expect(one.subject).toMatch(/^图纸变更通知 BG-\d{4}-\d{4}：门体图纸变更$/);
    expect(cstDay(one.dueDate!)).toBe(addDays(today(), 7));
    expect(one.body).toContain(addDays(today(), 7));
    // the outbox: one mail per recipient with an address (A2 has none; the disabled account gets nothing)
    const outbox = await db.notificationDelivery.findMany({ where: { notification: { linkPath: link, kind: 'NOTICE_PUBLISHED' } }, orderBy: { address: 'asc' } });
    expect(outbox.map((d) => [d.channel, d.address, d.state, d.tries])).toEqual([
      ['EMAIL', 'a1@example.com', 'PENDING', 0],
      ['EMAIL', 'b1@example.com', 'PENDING', 0],
    ]);
  });

  it('a publish that is refused writes no notification', async () => {
    const before = await db.notification.count();
    const again = await post(t.app, noticesApi.publish.path, { id: notice.id }, admin);
    expect(again.statusCode).toBe(409);
    expect(await db.notification.count()).toBe(before);
  });

  it('the bell and the centre show each user only their own; marking read touches only theirs', async () => {
    const a1 = await login(t.app, users.A1!.account, users.A1!.password);
    const c1 = await login(t.app, users.C1!.account, users.C1!.password);
    const bellA = (await post(t.app, notificationsApi.bell.path, undefined, a1)).json().data;
    expect(bellA.unread).toBe(1);
    expect(bellA.latest[0]).toMatchObject({ kind: 'NOTICE_PUBLISHED', linkPath: `/esm/supplier/noticeOfChangeOfDrawings?id=${notice.id}`, readAt: null, dueDate: addDays(today(), 7) });
    const bellC = (await post(t.app, notificationsApi.bell.path, undefined, c1)).json().data;
    expect(bellC).toEqual({ unread: 0, latest: [] });

    // C's user names A1's notification: nothing changes
    const mine = bellA.latest[0].id as number;
    const foreign = await post(t.app, notificationsApi.markRead.path, { ids: [mine] }, c1);
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json().data.marked).toBe(0);
    expect((await db.notification.findUniqueOrThrow({ where: { id: mine } })).readAt).toBeNull();

    const page = (await post(t.app, notificationsApi.page.path, { state: 'UNREAD' }, a1)).json();
    expect(page.total).toBe(1);
    const all = await post(t.app, notificationsApi.markRead.path, {}, a1);
    expect(all.json().data.marked).toBe(1);
    expect((await post(t.app, notificationsApi.bell.path, undefined, a1)).json().data.unread).toBe(0);
    expect((await post(t.app, notificationsApi.page.path, { state: 'UNREAD' }, a1)).json().total).toBe(0);
  });

  it('a bad filter is a field error', async () => {
    const a1 = await login(t.app, users.A1!.account, users.A1!.password);
    const res = await post(t.app, notificationsApi.page.path, { kind: 'NOPE' }, a1);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('kind');
  });

  it('withdraw tells the same suppliers’ users, with the reason', async () => {
    const res = await post(t.app, noticesApi.withdraw.path, { id: notice.id, reason: '变更内容有误' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const link = `/esm/supplier/noticeOfChangeOfDrawings?id=${notice.id}`;
    expect(await recipientsOf('NOTICE_WITHDRAWN', link)).toEqual(sorted([users.A1!.id, users.A2!.id, users.B1!.id]));
    const n = await db.notification.findFirstOrThrow({ where: { kind: 'NOTICE_WITHDRAWN', linkPath: link } });
    expect(n.body).toContain('变更内容有误');
  });
});

describe('drawing authorization', () => {
  it('submit tells every enabled approver; the decision tells the applicant supplier’s users only', async () => {
    const { supplier, materials } = await supplierSupplying(db, 1);
    const other = await supplierSupplying(db, 1);
    const applicant = await createSupplierUser(t.db, supplier.code);
    const colleague = await createSupplierUser(t.db, supplier.code);
    const stranger = await createSupplierUser(t.db, other.supplier.code);
    await acceptCurrentAgreement(db, applicant.id, supplier.code);
    const approver2 = await createUser(t.db, { type: 6 });
    const cookie = await login(t.app, applicant.account, applicant.password);
    const d = await post(t.app, empowerApi.createApply.path, { materialCodes: materials.map((m) => m.code), validFrom: today(), validUntil: addDays(today(), 89), reason: '模具开发需要查看图纸' }, cookie);
    expect(d.statusCode, d.body).toBe(200);
    const id = d.json().data.id as number;
    expect((await post(t.app, empowerApi.submitApply.path, { id }, cookie)).statusCode).toBe(200);

    const approvers = await db.user.findMany({ where: { type: 6, enabled: true }, select: { id: true } });
    expect(approvers.map((a) => a.id)).toContain(approver2.id);
    const submitted = await db.notification.findMany({ where: { kind: 'APPLICATION_SUBMITTED', subject: { contains: `申请 ${id}）` } }, select: { userId: true } });
    expect(sorted(submitted.map((n) => n.userId))).toEqual(sorted(approvers.map((a) => a.id)));

    const decided = await post(t.app, empowerApi.approve.path, { ids: [id], decision: 'REJECT', comment: '请补充用途' }, approver);
    expect(decided.statusCode, decided.body).toBe(200);
    const told = await db.notification.findMany({ where: { kind: 'APPLICATION_DECIDED', subject: `图纸授权申请 ${id} 已驳回` } });
    expect(sorted(told.map((n) => n.userId))).toEqual(sorted([applicant.id, colleague.id]));
    expect(told.map((n) => n.userId)).not.toContain(stranger.id);
    expect(told[0]!.body).toBe('审批意见：请补充用途');
  });
});
