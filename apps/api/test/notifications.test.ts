/**
 * Notifications through the real calls on a real Postgres: each move writes its notifications in
 * its own transaction to exactly the users its domain's scope rules name (never another
 * supplier's), with an outbox row for each user with an address while mail is on; the centre
 * shows a user only their own, and marking read touches only theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  empowerApi,
  noticesApi,
  notificationsApi,
  PAGES,
  countersignApi,
  documentIssuesApi,
  problemTypesApi,
} from '@esm/contracts';
import { addDays } from '../src/modules/empower/days.ts';
import { cstDay } from '../src/lib/dates.ts';
import { EMAIL_CHANNEL, sendDailyReminders, useChannels } from '../src/modules/notifications/index.ts';
import {
  acceptCurrentAgreement,
  createFileVersion,
  createGrant,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  samplePdf,
  supplierSupplying,
  tempStorage,
  unique,
} from './factories.ts';
import { buildTestApp, createUser, login, callApi, unchecked } from './helpers.ts';

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
  const rows = await db.notification.findMany({
    where: { kind, linkPath },
    select: { userId: true },
    orderBy: { userId: 'asc' },
  });
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
    const file = await createFileVersion(db, files.storage, {
      materialCode: m.code,
      type: 'pdf',
      bytes: pdf,
      standardCode: `Q/NT-${unique()}`,
      status: 'EFFECTIVE',
      version: 'A',
    });
    const d = await callApi(
      t.app,
      noticesApi.create,
      {
        title: '门体图纸变更',
        reason: '结构优化',
        productLineCode: line.code,
        dueDate: addDays(today(), 7),
        newFileIds: [file.id],
      },
      admin,
    );
    expect(d.statusCode, d.body).toBe(200);
    notice = d.json().data;
  });

  it('publish tells the enabled users of each recipient supplier and no one else, in the publish transaction', async () => {
    const res = await callApi(t.app, noticesApi.publish, { id: notice.id }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const link = `${PAGES.noticeOfChangeOfDrawings.path}?id=${notice.id}`;
    expect(await recipientsOf('NOTICE_PUBLISHED', link)).toEqual(sorted([users.A1!.id, users.A2!.id, users.B1!.id]));
    const one = await db.notification.findFirstOrThrow({
      where: { kind: 'NOTICE_PUBLISHED', linkPath: link, userId: users.A1!.id },
    });
    expect(one.subject).toMatch(/^图纸变更通知 BG-\d{4}-\d{4}：门体图纸变更$/);
    expect(cstDay(one.dueDate!)).toBe(addDays(today(), 7));
    expect(one.body).toContain(addDays(today(), 7));
    // the outbox: one mail per recipient with an address (A2 has none; the disabled account gets nothing)
    const outbox = await db.notificationDelivery.findMany({
      where: { notification: { linkPath: link, kind: 'NOTICE_PUBLISHED' } },
      orderBy: { address: 'asc' },
    });
    expect(outbox.map((d) => [d.channel, d.address, d.state, d.tries])).toEqual([
      ['EMAIL', 'a1@example.com', 'PENDING', 0],
      ['EMAIL', 'b1@example.com', 'PENDING', 0],
    ]);
  });

  it('a publish that is refused writes no notification', async () => {
    const before = await db.notification.count();
    const again = await callApi(t.app, noticesApi.publish, { id: notice.id }, admin);
    expect(again.statusCode).toBe(409);
    expect(await db.notification.count()).toBe(before);
  });

  it('the bell and the centre show each user only their own; marking read touches only theirs', async () => {
    const a1 = await login(t.app, users.A1!.account, users.A1!.password);
    const c1 = await login(t.app, users.C1!.account, users.C1!.password);
    const bellA = (await callApi(t.app, notificationsApi.bell, undefined, a1)).json().data;
    expect(bellA.unread).toBe(1);
    expect(bellA.latest[0]).toMatchObject({
      kind: 'NOTICE_PUBLISHED',
      linkPath: `${PAGES.noticeOfChangeOfDrawings.path}?id=${notice.id}`,
      readAt: null,
      dueDate: addDays(today(), 7),
    });
    const bellC = (await callApi(t.app, notificationsApi.bell, undefined, c1)).json().data;
    expect(bellC).toEqual({ unread: 0, latest: [] });

    // C's user names A1's notification: nothing changes
    const mine = bellA.latest[0].id as number;
    const foreign = await callApi(t.app, notificationsApi.markRead, { ids: [mine] }, c1);
    expect(foreign.statusCode, foreign.body).toBe(200);
    expect(foreign.json().data.marked).toBe(0);
    expect((await db.notification.findUniqueOrThrow({ where: { id: mine } })).readAt).toBeNull();

    const page = (await callApi(t.app, notificationsApi.page, { state: 'UNREAD' }, a1)).json();
    expect(page.total).toBe(1);
    const all = await callApi(t.app, notificationsApi.markRead, {}, a1);
    expect(all.json().data.marked).toBe(1);
    expect((await callApi(t.app, notificationsApi.bell, undefined, a1)).json().data.unread).toBe(0);
    expect((await callApi(t.app, notificationsApi.page, { state: 'UNREAD' }, a1)).json().total).toBe(0);
  });

  it('a bad filter is a field error', async () => {
    const a1 = await login(t.app, users.A1!.account, users.A1!.password);
    const res = await callApi(t.app, notificationsApi.page, { kind: 'NOPE' }, a1);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('kind');
  });

  it('催办 tells the reminded overdue suppliers’ users, and a second press within the interval tells nobody again', async () => {
    await db.changeNotice.update({
      where: { id: notice.id },
      data: { dueDate: new Date(`${addDays(today(), -1)}T00:00:00Z`) },
    });
    const link = `${PAGES.noticeOfChangeOfDrawings.path}?id=${notice.id}`;
    const res = await callApi(
      t.app,
      noticesApi.remind,
      {
        id: notice.id,
        supplierCodes: [(await db.user.findUniqueOrThrow({ where: { id: users.B1!.id } })).supplierCode!],
      },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.reminded).toBe(1);
    expect(await recipientsOf('NOTICE_OVERDUE', link)).toEqual([users.B1!.id]);
    const n = await db.notification.findFirstOrThrow({ where: { kind: 'NOTICE_OVERDUE', linkPath: link } });
    expect(n.subject).toMatch(/^催办：图纸变更通知 BG-\d{4}-\d{4} 已逾期未确认：门体图纸变更$/);
    const outbox = await db.notificationDelivery.findMany({ where: { notificationId: n.id } });
    expect(outbox.map((d) => d.address)).toEqual(['b1@example.com']);
    // within the interval the recipient is skipped: no second notification
    expect((await callApi(t.app, noticesApi.remind, { id: notice.id }, admin)).json().data.reminded).toBe(1); // A only
    expect(await recipientsOf('NOTICE_OVERDUE', link)).toEqual(sorted([users.A1!.id, users.A2!.id, users.B1!.id]));
  });

  it('withdraw tells the same suppliers’ users, with the reason', async () => {
    const res = await callApi(t.app, noticesApi.withdraw, { id: notice.id, reason: '变更内容有误' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const link = `${PAGES.noticeOfChangeOfDrawings.path}?id=${notice.id}`;
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
    const d = await callApi(
      t.app,
      empowerApi.createApply,
      {
        materialCodes: materials.map((m) => m.code),
        validFrom: today(),
        validUntil: addDays(today(), 89),
        reason: '模具开发需要查看图纸',
      },
      cookie,
    );
    expect(d.statusCode, d.body).toBe(200);
    const id = d.json().data.id as number;
    expect((await callApi(t.app, empowerApi.submitApply, { id }, cookie)).statusCode).toBe(200);

    // the approvers are the manufacturer's own type 6 accounts (a supplier account of that type is not one)
    const approvers = await db.user.findMany({
      where: { type: 6, enabled: true, supplierCode: null },
      select: { id: true },
    });
    expect(approvers.map((a) => a.id)).toContain(approver2.id);
    const submitted = await db.notification.findMany({
      where: { kind: 'APPLICATION_SUBMITTED', subject: { contains: `申请 ${id}）` } },
      select: { userId: true },
    });
    expect(sorted(submitted.map((n) => n.userId))).toEqual(sorted(approvers.map((a) => a.id)));

    const decided = await callApi(
      t.app,
      empowerApi.approve,
      { ids: [id], decision: 'REJECT', comment: '请补充用途' },
      approver,
    );
    expect(decided.statusCode, decided.body).toBe(200);
    const told = await db.notification.findMany({
      where: { kind: 'APPLICATION_DECIDED', subject: `图纸授权申请 ${id} 已驳回` },
    });
    expect(sorted(told.map((n) => n.userId))).toEqual(sorted([applicant.id, colleague.id]));
    expect(told.map((n) => n.userId)).not.toContain(stranger.id);
    expect(told[0]!.body).toBe('审批意见：请补充用途');
  });
});

describe('questions on drawings', () => {
  it('routed or assigned: the answerer (not one who takes it); replied: the asking supplier’s users only', async () => {
    const admin7 = await login(t.app, 'demo7');
    const line = await createProductLine(db);
    const m = await createMaterial(db, line.code);
    const [A, B] = [await createSupplier(db, '问甲'), await createSupplier(db, '问乙')];
    for (const s of [A, B]) {
      await linkSupplier(db, s.code, m.code);
      await createGrant(db, s.code, m.code);
    }
    const file = await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf });
    const asker = await createSupplierUser(t.db, A.code);
    const colleague = await createSupplierUser(t.db, A.code);
    const stranger = await createSupplierUser(t.db, B.code);
    await acceptCurrentAgreement(db, asker.id, A.code);
    const h1 = await createUser(t.db, { type: 5, prefix: 'nt' });
    const h2 = await createUser(t.db, { type: 5, prefix: 'nt' });
    const typeId = (
      await callApi(
        t.app,
        problemTypesApi.create,
        { name: `产品线问题${unique()}`, role: 'PRODUCT_LINE', responseDays: 3, enabled: true },
        admin7,
      )
    ).json().data.id as number;
    expect(
      (
        await callApi(
          t.app,
          problemTypesApi.addRole,
          { productLineCode: line.code, role: 'PRODUCT_LINE', userId: h1.id },
          admin7,
        )
      ).statusCode,
    ).toBe(200);

    const cookie = await login(t.app, asker.account, asker.password);
    const added = await callApi(
      t.app,
      documentIssuesApi.add,
      {
        fileId: file.id,
        problemTypeId: typeId,
        title: '孔位公差',
        description: '请确认孔位公差',
        purchaser: '采购员甲',
      },
      cookie,
    );
    expect(added.statusCode, added.body).toBe(200);
    const id = added.json().data.id as number;
    expect((await callApi(t.app, documentIssuesApi.submit, { id }, cookie)).statusCode).toBe(200);
    const link = `${PAGES.documentIssueH.path}?id=${id}`;
    expect(await recipientsOf('QUESTION_ASSIGNED', link)).toEqual([h1.id]);

    // h1 reassigns to h2 (with a reason): h2 is told; h1, who moved it, is not told again
    const c1 = await login(t.app, h1.account, h1.password);
    const moved = await callApi(t.app, documentIssuesApi.assign, { id, userId: h2.id, reason: '由 SQE 处理' }, c1);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await recipientsOf('QUESTION_ASSIGNED', link)).toEqual(sorted([h1.id, h2.id]));
    expect(
      (await db.notification.findFirstOrThrow({ where: { kind: 'QUESTION_ASSIGNED', linkPath: link, userId: h2.id } }))
        .subject,
    ).toMatch(/^图纸问题改派给您：/);

    const c2 = await login(t.app, h2.account, h2.password);
    const replied = await callApi(t.app, documentIssuesApi.reply, { id, text: '按图纸执行' }, c2);
    expect(replied.statusCode, replied.body).toBe(200);
    expect(await recipientsOf('QUESTION_REPLIED', `${PAGES.documentIssue.path}?id=${id}`)).toEqual(
      sorted([asker.id, colleague.id]),
    );
    expect(await db.notification.count({ where: { userId: stranger.id } })).toBe(0);
  });
});

describe('countersign lists', () => {
  it('issued: the supplier’s users; then each internal signer in turn; returned: the issuer; completed: issuer and supplier', async () => {
    const ids = Object.fromEntries(
      await Promise.all(
        ['demo3', 'demo8', 'demo9'].map(
          async (a) => [a, (await db.user.findUniqueOrThrow({ where: { account: a } })).id] as const,
        ),
      ),
    );
    const s001 = (
      await db.user.findMany({
        where: { supplierCode: 'S001', type: { in: [2, 4] }, enabled: true },
        select: { id: true },
      })
    ).map((u) => u.id);
    const line = await createProductLine(db);
    const m = await createMaterial(db, line.code);
    await linkSupplier(db, 'S001', m.code);
    const file = await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf });
    const [demo2, demo8, demo9] = [
      await login(t.app, 'demo2'),
      await login(t.app, 'demo8'),
      await login(t.app, 'demo9'),
    ];
    const created = await callApi(
      t.app,
      countersignApi.create,
      {
        title: '通知会签',
        supplierCode: 'S001',
        items: '1. 首件送检',
        dueDate: addDays(today(), 7),
        fileIds: [file.id],
        signerIds: [ids.demo8, ids.demo9],
      },
      admin,
    );
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const internal = `${PAGES.countersignList.path}?id=${id}`;
    const supplierSide = `${PAGES.supplierCountersignList.path}?id=${id}`;
    const waiting = async () =>
      (
        await db.notification.findMany({
          where: { kind: 'COUNTERSIGN_WAITING', OR: [{ linkPath: internal }, { linkPath: supplierSide }] },
          orderBy: { id: 'asc' },
          select: { userId: true },
        })
      ).map((n) => n.userId);

    expect((await callApi(t.app, countersignApi.issue, { id }, admin)).statusCode).toBe(200);
    expect(sorted(await waiting())).toEqual(sorted(s001));
    expect(
      (await callApi(t.app, countersignApi.submit, { id, round: 1, step: 0, decision: 'AGREE' }, demo2)).statusCode,
    ).toBe(200);
    expect((await waiting()).slice(s001.length)).toEqual([ids.demo8]);
    // demo8 returns it: the issuer hears; nobody else's turn begins
    expect(
      (
        await callApi(
          t.app,
          countersignApi.sign,
          { id, round: 1, step: 1, decision: 'RETURN', comment: '公差需再确认' },
          demo8,
        )
      ).statusCode,
    ).toBe(200);
    expect(await recipientsOf('COUNTERSIGN_RETURNED', internal)).toEqual([ids.demo3]);
    expect((await waiting()).slice(s001.length)).toEqual([ids.demo8]);

    // round 2 to completion: supplier, demo8, demo9 in turn, then everyone hears it is complete
    expect((await callApi(t.app, countersignApi.issue, { id }, admin)).statusCode).toBe(200);
    expect(
      (await callApi(t.app, countersignApi.submit, { id, round: 2, step: 0, decision: 'AGREE' }, demo2)).statusCode,
    ).toBe(200);
    expect(
      (await callApi(t.app, countersignApi.sign, { id, round: 2, step: 1, decision: 'AGREE' }, demo8)).statusCode,
    ).toBe(200);
    expect(
      (await callApi(t.app, countersignApi.sign, { id, round: 2, step: 2, decision: 'AGREE' }, demo9)).statusCode,
    ).toBe(200);
    const all = await waiting();
    expect(all.filter((u) => u === ids.demo8)).toHaveLength(2);
    expect(all.filter((u) => u === ids.demo9)).toHaveLength(1);
    expect(sorted(all.filter((u) => s001.includes(u)))).toEqual(sorted([...s001, ...s001]));
    expect(await recipientsOf('COUNTERSIGN_COMPLETED', internal)).toEqual([ids.demo3]);
    expect(await recipientsOf('COUNTERSIGN_COMPLETED', supplierSide)).toEqual(sorted(s001));
    expect(
      await db.notification.count({
        where: {
          linkPath: { in: [internal, supplierSide] },
          userId: { notIn: [...s001, ids.demo3!, ids.demo8!, ids.demo9!] },
        },
      }),
    ).toBe(0);
  });
});

describe('个人设置', () => {
  it('a user sets their own address (validated) and which kinds are mailed; a muted kind is still in the centre', async () => {
    const s = await supplierSupplying(db, 1);
    const u = await createSupplierUser(t.db, s.supplier.code);
    const cookie = await login(t.app, u.account, u.password);
    const bad = await callApi(
      t.app,
      notificationsApi.saveSettings,
      { email: 'not-an-address', mutedKinds: [] },
      cookie,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({
      field: 'email',
      message: '邮箱格式不正确，例如 zhangwei@example.com',
    });
    const badKind = await callApi(t.app, notificationsApi.saveSettings, unchecked({ mutedKinds: ['NOPE'] }), cookie);
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().errors[0].field).toBe('mutedKinds.0');

    const saved = await callApi(
      t.app,
      notificationsApi.saveSettings,
      { email: ' me@example.com ', mutedKinds: ['APPLICATION_DECIDED'] },
      cookie,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      account: u.account,
      email: 'me@example.com',
      mutedKinds: ['APPLICATION_DECIDED'],
    });
    expect((await callApi(t.app, notificationsApi.settings, undefined, cookie)).json().data.email).toBe(
      'me@example.com',
    );
    // the choices offered are the kinds the user's type receives: a supplier is never asked about approving
    const offered = (await callApi(t.app, notificationsApi.settings, undefined, cookie)).json().data.kinds as string[];
    expect(offered).toContain('NOTICE_PUBLISHED');
    expect(offered).not.toContain('APPLICATION_SUBMITTED');
    expect((await callApi(t.app, notificationsApi.settings, undefined, approver)).json().data.kinds).toEqual([
      'APPLICATION_SUBMITTED',
    ]);

    // a decision on the supplier's application: in the centre, but no mail for this user
    await acceptCurrentAgreement(db, u.id, s.supplier.code);
    const d = await callApi(
      t.app,
      empowerApi.createApply,
      {
        materialCodes: s.materials.map((m) => m.code),
        validFrom: today(),
        validUntil: addDays(today(), 29),
        reason: '模具开发需要查看图纸',
      },
      cookie,
    );
    const id = d.json().data.id as number;
    expect((await callApi(t.app, empowerApi.submitApply, { id }, cookie)).statusCode).toBe(200);
    expect(
      (await callApi(t.app, empowerApi.approve, { ids: [id], decision: 'REJECT', comment: '不需要' }, approver))
        .statusCode,
    ).toBe(200);
    const n = await db.notification.findFirstOrThrow({
      where: { userId: u.id, kind: 'APPLICATION_DECIDED' },
      include: { deliveries: true },
    });
    expect(n.deliveries).toEqual([]);

    // blank clears the address
    const cleared = await callApi(t.app, notificationsApi.saveSettings, { email: '', mutedKinds: [] }, cookie);
    expect(cleared.json().data).toMatchObject({ email: null, mutedKinds: [] });
  });
});

describe('修改邮箱 by an internal admin', () => {
  it('a drawing admin sets or clears another user’s address with the same rule; a supplier may not; an unknown account is 404', async () => {
    const S = await createSupplier(db, '改邮箱');
    const u = await createSupplierUser(t.db, S.code);
    const set = await callApi(
      t.app,
      notificationsApi.updateUserEmail,
      { account: u.account, email: '  Li.Lei@Example.com ' },
      admin,
    );
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ account: u.account, email: 'Li.Lei@Example.com' });
    expect((await db.user.findUniqueOrThrow({ where: { id: u.id } })).email).toBe('Li.Lei@Example.com');
    const bad = await callApi(t.app, notificationsApi.updateUserEmail, { account: u.account, email: 'li.lei@' }, admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      expect.objectContaining({ field: 'email', message: '邮箱格式不正确，例如 zhangwei@example.com' }),
    ]);
    expect(
      (
        await callApi(
          t.app,
          notificationsApi.updateUserEmail,
          { account: u.account, email: 'x@example.com' },
          await login(t.app, u.account),
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await callApi(
          t.app,
          notificationsApi.updateUserEmail,
          { account: `nobody-${unique()}`, email: 'x@example.com' },
          admin,
        )
      ).statusCode,
    ).toBe(404);
    const cleared = await callApi(t.app, notificationsApi.updateUserEmail, { account: u.account, email: '' }, admin);
    expect(cleared.json().data.email).toBeNull();
  });
});

describe('the day’s reminders', () => {
  it('a notice due in 2 days and a grant ending within 7 days tell their suppliers’ users once, however often the run repeats', async () => {
    const line = await createProductLine(db);
    const m = await createMaterial(db, line.code);
    const S = await createSupplier(db, '提醒');
    const other = await createSupplier(db, '提醒外');
    await linkSupplier(db, S.code, m.code);
    await createGrant(db, S.code, m.code, 'valid');
    const u = await createSupplierUser(t.db, S.code);
    const stranger = await createSupplierUser(t.db, other.code);
    const file = await createFileVersion(db, files.storage, {
      materialCode: m.code,
      type: 'pdf',
      bytes: pdf,
      standardCode: `Q/RM-${unique()}`,
      status: 'EFFECTIVE',
      version: 'A',
    });
    const d = await callApi(
      t.app,
      noticesApi.create,
      {
        title: '提醒测试',
        reason: '结构优化',
        productLineCode: line.code,
        dueDate: addDays(today(), 2),
        newFileIds: [file.id],
      },
      admin,
    );
    expect((await callApi(t.app, noticesApi.publish, { id: d.json().data.id }, admin)).statusCode).toBe(200);
    // S's other grant ends in 5 days
    const m2 = await createMaterial(db, line.code);
    await linkSupplier(db, S.code, m2.code);
    const g = await db.empowerGrant.create({
      data: {
        supplierCode: S.code,
        materialCode: m2.code,
        validFrom: new Date(Date.now() - 86_400_000),
        validUntil: new Date(Date.now() + 5 * 86_400_000),
        createdBy: 'test',
      },
    });

    await sendDailyReminders(db);
    const mine = async () =>
      (
        await db.notification.findMany({
          where: { userId: u.id, kind: { in: ['NOTICE_DUE_SOON', 'GRANT_EXPIRING'] } },
          select: { kind: true, dedupeKey: true },
        })
      )
        .map((n) => `${n.kind} ${n.dedupeKey}`)
        .sort();
    const first = await mine();
    expect(first).toEqual(
      expect.arrayContaining([
        `NOTICE_DUE_SOON notice-due:${d.json().data.id}`,
        `GRANT_EXPIRING grant-expiring-7:${g.id}`,
      ]),
    );
    await Promise.all([sendDailyReminders(db), sendDailyReminders(db)]);
    expect(await mine()).toEqual(first);
    expect(await db.notification.count({ where: { userId: stranger.id } })).toBe(0);
  });
});
