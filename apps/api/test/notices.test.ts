/**
 * Drawing change notices through the real calls on a real Postgres: drafts and their
 * field errors, the frozen recipients (later grant, expired, revoked, future, not supplied), read on
 * open, confirm refused until every new version was viewed and then recording each version with its
 * sha256, idempotent repeats, concurrent publishes and confirmations, 409 after withdraw and after
 * the new version is superseded or obsoleted, suppliers kept to their own notices on every call,
 * the bell's counts, overdue (derived), remind, the change records and the matrix export.
 */
import { filesApi, noticesApi, type EndpointBody, type EndpointDef } from '@esm/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, buildTestApp, hasChinese, holdInserts, login, apiCaller } from './helpers.ts';
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
  tempStorage,
  unique,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const IP = '10.9.9.9';
const DAY = 86_400_000;

const call = apiCaller(t.app, { headers: { 'user-agent': 'vitest-notices' }, remoteAddress: IP });

/** A day `days` from today, YYYY-MM-DD in UTC+8. */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * DAY).toISOString().slice(0, 10);

let admin: string;
let line: { code: string; name: string };
let otherLine: { code: string };
let m1: { code: string };
let m2: { code: string };
let mOther: { code: string };
const sup: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G' | 'H', { code: string; name: string }> = {} as never;
const users: Record<string, { id: number; account: string; cookie: string }> = {};
const pdf = await samplePdf(1);

/** A standard code with `n` versions on the material: all but the last HISTORY; returns the versions. */
async function versions(materialCode: string, n: number) {
  const standardCode = `Q/BG-${unique()}`;
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(
      await createFileVersion(db, files.storage, {
        materialCode,
        type: 'pdf',
        bytes: pdf,
        standardCode,
        status: i === n - 1 ? 'EFFECTIVE' : 'HISTORY',
        version: String.fromCharCode(65 + i),
      }),
    );
  }
  return out;
}

async function supplierUser(key: string, supplierCode: string) {
  const u = await createSupplierUser(t.db, supplierCode);
  await acceptCurrentAgreement(db, u.id, supplierCode);
  users[key] = { id: u.id, account: u.account, cookie: await login(t.app, u.account) };
  return users[key]!;
}

async function draft(newFileIds: number[], extra: Record<string, unknown> = {}) {
  const res = await call(
    noticesApi.create,
    { title: '门体图纸变更', reason: '结构优化', productLineCode: line.code, dueDate: day(7), newFileIds, ...extra },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    id: number;
    number: string;
    status: string;
    changes: { standardCode: string; oldFile: { version: string } | null; newFile: { id: number; version: string } }[];
  };
}

async function published(newFileIds: number[]) {
  const d = await draft(newFileIds);
  const res = await call(noticesApi.publish, { id: d.id }, admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; number: string; recipientCount: number };
}

const view = (fileId: number, cookie: string) => call(filesApi.view, { id: fileId }, cookie);

beforeAll(async () => {
  admin = await login(t.app, 'demo3');
  line = await createProductLine(db);
  otherLine = await createProductLine(db);
  m1 = await createMaterial(db, line.code);
  m2 = await createMaterial(db, line.code);
  mOther = await createMaterial(db, otherLine.code);
  for (const k of Object.keys({ A: 1, B: 1, C: 1, D: 1, E: 1, F: 1, G: 1, H: 1 }) as (keyof typeof sup)[])
    sup[k] = await createSupplier(db, `通知${k}`);
  // A and B supply m1 with valid grants; A also supplies m2, whose grant expired
  for (const s of [sup.A, sup.B]) {
    await linkSupplier(db, s.code, m1.code);
    await createGrant(db, s.code, m1.code, 'valid');
  }
  await linkSupplier(db, sup.A.code, m2.code);
  await createGrant(db, sup.A.code, m2.code, 'expired');
  // C supplies only the other product line's material
  await linkSupplier(db, sup.C.code, mOther.code);
  await createGrant(db, sup.C.code, mOther.code, 'valid');
  // D holds a grant on m1 but does not supply it; E's grant starts later; F has none; G's was revoked
  await createGrant(db, sup.D.code, m1.code, 'valid');
  for (const s of [sup.E, sup.F, sup.G, sup.H]) await linkSupplier(db, s.code, m1.code);
  await createGrant(db, sup.E.code, m1.code, 'future');
  await createGrant(db, sup.G.code, m1.code, 'revoked');
  // H supplies m1 with an expired grant
  await createGrant(db, sup.H.code, m1.code, 'expired');
  await supplierUser('A', sup.A.code);
  await supplierUser('A2', sup.A.code);
  await supplierUser('B', sup.B.code);
  await supplierUser('C', sup.C.code);
  await supplierUser('F', sup.F.code);
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

describe('drafts', () => {
  it('creates a numbered draft whose changes say old → new; editing it keeps the number', async () => {
    const x = await versions(m1.code, 2);
    const y = await versions(m2.code, 1);
    const d = await draft([x[1]!.id, y[0]!.id]);
    expect(d.number).toMatch(/^BG-\d{4}-\d{4}$/);
    expect(d.status).toBe('DRAFT');
    expect(d.changes.map((c) => [c.oldFile?.version ?? null, c.newFile.version])).toEqual([
      ['A', 'B'],
      [null, 'A'],
    ]);

    const edited = await call(
      noticesApi.update,
      {
        id: d.id,
        title: '门体图纸变更（修订）',
        reason: '结构优化',
        productLineCode: line.code,
        dueDate: day(3),
        newFileIds: [x[1]!.id],
      },
      admin,
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({
      id: d.id,
      number: d.number,
      title: '门体图纸变更（修订）',
      dueDate: day(3),
      changeCount: 1,
    });
    const events = await db.noticeEvent.findMany({ where: { noticeId: d.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.action)).toEqual(['CREATE', 'UPDATE']);
  });

  it('two drafts created at once get two different numbers', async () => {
    const x = await versions(m1.code, 2);
    const both = await Promise.all(
      [0, 1].map(() =>
        call(
          noticesApi.create,
          { title: '并发', reason: '并发', productLineCode: line.code, dueDate: day(7), newFileIds: [x[1]!.id] },
          admin,
        ),
      ),
    );
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(new Set(both.map((r) => r.json().data.number)).size).toBe(2);
  });

  it('refuses a bad draft with a Chinese message on each field', async () => {
    const x = await versions(m1.code, 2);
    const other = await versions(mOther.code, 1);
    const res = await call(
      noticesApi.create,
      {
        title: '  ',
        reason: '原因',
        productLineCode: line.code,
        dueDate: day(-1),
        newFileIds: [x[0]!.id, other[0]!.id, 2_000_000_000],
      },
      admin,
    );
    expect(res.statusCode).toBe(400);
    // zod first: the blank title
    expect(res.json().errors).toEqual([{ field: 'title', message: '请输入标题' }]);

    const db400 = await call(
      noticesApi.create,
      {
        title: '标题',
        reason: '原因',
        productLineCode: line.code,
        dueDate: day(-1),
        newFileIds: [x[0]!.id, other[0]!.id, 2_000_000_000],
      },
      admin,
    );
    expect(db400.statusCode).toBe(400);
    const errors = db400.json().errors as { field: string; message: string }[];
    expect(errors.map((e) => e.field)).toEqual(['dueDate', 'newFileIds.0', 'newFileIds.1', 'newFileIds.2']);
    expect(errors[0]!.message).toBe('确认截止日期不能早于今天');
    expect(errors[1]!.message).toContain('已被更新的版本替代');
    expect(errors[2]!.message).toContain('与通知的产品线');
    expect(errors[3]!.message).toBe('文件不存在（编号 2000000000）');
    for (const e of errors) expect(hasChinese(e.message)).toBe(true);

    const dup = await call(
      noticesApi.create,
      { title: '标题', reason: '原因', productLineCode: line.code, dueDate: day(1), newFileIds: [x[1]!.id, x[1]!.id] },
      admin,
    );
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors[0]).toMatchObject({ field: 'newFileIds', message: '同一版本不能重复添加' });
  });
});

describe('publishing', () => {
  it('freezes the recipients by the grant rule, with why; a later grant adds no one', async () => {
    const x = await versions(m1.code, 2);
    const y = await versions(m2.code, 2);
    const d = await draft([x[1]!.id, y[1]!.id]);
    const preview = await call(noticesApi.previewRecipients, { id: d.id }, admin);
    expect(preview.json().data.map((r: { supplierCode: string }) => r.supplierCode)).toEqual(
      [sup.A.code, sup.B.code].sort(),
    );

    const pub = await call(noticesApi.publish, { id: d.id }, admin);
    expect(pub.statusCode, pub.body).toBe(200);
    expect(pub.json().message).toBe('已发布，通知 2 家供应商');
    expect(pub.json().data).toMatchObject({ status: 'PUBLISHED', recipientCount: 2, readCount: 0, confirmedCount: 0 });

    const recipients = await call(
      noticesApi.recipients,
      { id: d.id, page: 1, results: 10, sortField: 'supplierCode', sortOrder: 'ascend' },
      admin,
    );
    const rows = recipients.json().data as {
      supplierCode: string;
      status: string;
      basis: { materialCode: string }[];
    }[];
    expect(rows.map((r) => r.supplierCode)).toEqual([sup.A.code, sup.B.code].sort());
    // A supplies m2 too, but its grant there expired: only m1 made it a recipient
    for (const r of rows) expect(r.basis.map((b) => b.materialCode)).toEqual([m1.code]);
    expect(recipients.json().total).toBe(2);
    const missing = await call(noticesApi.recipients, { id: 2_000_000_000, page: 1, results: 10 }, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('变更通知不存在或无权查看');

    // F gets a valid grant after publishing: the preview would reach it now, the notice does not
    const g = await createGrant(db, sup.F.code, m1.code, 'valid');
    try {
      expect(await db.noticeRecipient.count({ where: { noticeId: d.id } })).toBe(2);
      const f = await call(noticesApi.supplierFind, { id: d.id }, users.F!.cookie);
      expect(f.statusCode).toBe(404);
      const fInbox = await call(noticesApi.inbox, { page: 1, results: 10 }, users.F!.cookie);
      expect(fInbox.json().data.some((n: { id: number }) => n.id === d.id)).toBe(false);
    } finally {
      await db.empowerGrant.delete({ where: { id: g.id } });
    }
    const events = await db.noticeEvent.findMany({ where: { noticeId: d.id, action: 'PUBLISH' } });
    expect(events).toHaveLength(1);
    expect(events[0]!.detail).toContain(sup.A.code);
  });

  it('two publishes at once: one publishes, the other is a 409; the recipients are written once', async () => {
    const x = await versions(m1.code, 2);
    const d = await draft([x[1]!.id]);
    const both = await Promise.all([0, 1].map(() => call(noticesApi.publish, { id: d.id }, admin)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().message).toBe('该通知已发布，不能重复发布');
    expect(await db.noticeRecipient.count({ where: { noticeId: d.id } })).toBe(2);
    expect(await db.noticeEvent.count({ where: { noticeId: d.id, action: 'PUBLISH' } })).toBe(1);
    // and a published notice is no longer a draft to edit
    const edit = await call(
      noticesApi.update,
      { id: d.id, title: 't', reason: 'r', productLineCode: line.code, dueDate: day(7), newFileIds: [x[1]!.id] },
      admin,
    );
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('该通知当前为「已发布」，只有草稿可以编辑');
  });

  it('a publish sent while an edit of the draft is still writing waits for it and goes out with the edited changes', async () => {
    const x = await versions(m1.code, 2);
    const c = await versions(mOther.code, 1);
    const d = await draft([x[1]!.id]);
    // the edit stops at its event row, its notice and changes written but not committed
    const held = await holdInserts('notice_event');
    let edit: Promise<Awaited<ReturnType<typeof call>>>;
    let publish: typeof edit;
    try {
      edit = call(
        noticesApi.update,
        {
          id: d.id,
          title: '改为其他产品线',
          reason: '结构优化',
          productLineCode: otherLine.code,
          dueDate: day(7),
          newFileIds: [c[0]!.id],
        },
        admin,
      );
      const editing = await held.writer();
      publish = call(noticesApi.publish, { id: d.id }, admin);
      await held.waitBehind(editing);
    } finally {
      await held.release();
    }
    expect((await edit!).statusCode, (await edit!).body).toBe(200);
    const out = await publish!;
    expect(out.statusCode, out.body).toBe(200);
    // the edited notice's material reaches C alone — not A and B, whom the draft named before the edit
    const recipients = await db.noticeRecipient.findMany({ where: { noticeId: d.id }, select: { supplierCode: true } });
    expect(recipients.map((r) => r.supplierCode)).toEqual([sup.C.code]);
    const events = await db.noticeEvent.findMany({ where: { noticeId: d.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'PUBLISH']);
    expect(events[2]!.detail).toBe(`通知 1 家供应商：${sup.C.code}`);
  });

  it('refuses to publish a draft whose new version was superseded meanwhile, or that reaches no one', async () => {
    const x = await versions(m1.code, 2);
    const d = await draft([x[1]!.id]);
    await db.standardFile.update({ where: { id: x[1]!.id }, data: { status: 'HISTORY' } });
    await createFileVersion(db, files.storage, {
      materialCode: m1.code,
      type: 'pdf',
      bytes: pdf,
      standardCode: x[0]!.standardCode,
      version: 'C',
    });
    const res = await call(noticesApi.publish, { id: d.id }, admin);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      `${x[0]!.standardCode} 的新版本 B 已被更新的版本替代，请编辑通知改选当前生效的版本后再发布`,
    );

    const lonely = await createMaterial(db, line.code);
    const z = await versions(lonely.code, 1);
    const nobody = await draft([z[0]!.id]);
    const none = await call(noticesApi.publish, { id: nobody.id }, admin);
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toContain('没有持有有效授权的供应商');
    expect((await db.changeNotice.findUniqueOrThrow({ where: { id: nobody.id } })).status).toBe('DRAFT');
  });
});

describe('a notice on several suppliers’ materials', () => {
  it('each recipient sees, counts, lists and confirms only the changes on its own materials', async () => {
    const m3 = await createMaterial(db, line.code);
    await linkSupplier(db, sup.C.code, m3.code);
    await createGrant(db, sup.C.code, m3.code, 'valid');
    const x = await versions(m1.code, 2); // A and B supply m1
    const z = await versions(m3.code, 1); // C alone supplies m3
    const n = await published([x[1]!.id, z[0]!.id]);
    expect(n.recipientCount).toBe(3);

    const detailOf = async (who: string) =>
      (await call(noticesApi.supplierFind, { id: n.id }, users[who]!.cookie)).json().data;
    const c = await detailOf('C');
    expect(c.changes.map((ch: { materialCode: string }) => ch.materialCode)).toEqual([m3.code]);
    expect(c).toMatchObject({ changeCount: 1, changeSummary: `${z[0]!.standardCode}（新增→A）` });
    const a = await detailOf('A');
    expect(a.changes.map((ch: { materialCode: string }) => ch.materialCode)).toEqual([m1.code]);
    expect(JSON.stringify(a)).not.toContain(z[0]!.standardCode);
    // the inbox row, the bell and the change list say the same
    const inbox = (await call(noticesApi.inbox, { page: 1, results: 50 }, users.C!.cookie))
      .json()
      .data.find((r: { id: number }) => r.id === n.id);
    expect(inbox).toMatchObject({ changeCount: 1, changeSummary: `${z[0]!.standardCode}（新增→A）` });
    expect(JSON.stringify((await call(noticesApi.unread, {}, users.C!.cookie)).json().data)).not.toContain(
      x[0]!.standardCode,
    );
    const list = (
      await call(noticesApi.supplierChangeList, { page: 1, results: 50, noticeNumber: n.number }, users.C!.cookie)
    ).json().data;
    expect(list.map((r: { standardCode: string }) => r.standardCode)).toEqual([z[0]!.standardCode]);
    // the manufacturer's side still shows the whole notice
    expect((await call(noticesApi.detail, { id: n.id }, admin)).json().data.changes).toHaveLength(2);

    // C confirms after viewing its own new version — not A's, which it cannot open
    expect((await view(x[1]!.id, users.C!.cookie)).statusCode).toBe(404);
    expect((await call(noticesApi.confirm, { id: n.id }, users.C!.cookie)).json().message).toBe(
      `请先查看以下新版本后再确认：${z[0]!.standardCode} A`,
    );
    expect((await view(z[0]!.id, users.C!.cookie)).statusCode).toBe(200);
    const confirmed = await call(noticesApi.confirm, { id: n.id }, users.C!.cookie);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.confirmedFiles.map((f: { fileId: number }) => f.fileId)).toEqual([z[0]!.id]);
  });
});

describe('a recipient reads and confirms', () => {
  it('opening marks read once (user, time, IP); confirming is refused until every new version was viewed, then records each version with its sha256', async () => {
    const x = await versions(m1.code, 2);
    const y = await versions(m1.code, 3);
    const n = await published([x[1]!.id, y[2]!.id]);

    const open = await call(noticesApi.supplierFind, { id: n.id }, users.A!.cookie);
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json().data).toMatchObject({
      id: n.id,
      status: 'PUBLISHED',
      recipientStatus: 'READ',
      readByAccount: users.A!.account,
      confirmedAt: null,
    });
    expect(open.json().data.changes.map((c: { viewedAt: string | null }) => c.viewedAt)).toEqual([null, null]);
    const again = await call(noticesApi.supplierFind, { id: n.id }, users.A2!.cookie);
    expect(again.json().data).toMatchObject({ recipientStatus: 'READ', readByAccount: users.A!.account });
    const row = await db.noticeRecipient.findUniqueOrThrow({
      where: { noticeId_supplierCode: { noticeId: n.id, supplierCode: sup.A.code } },
    });
    expect(row).toMatchObject({ status: 'READ', readIp: IP, readByAccount: users.A!.account });
    expect(await db.noticeEvent.count({ where: { noticeId: n.id, action: 'READ' } })).toBe(1);

    const before = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toBe(`请先查看以下新版本后再确认：${x[0]!.standardCode} B、${y[0]!.standardCode} C`);

    // another supplier's view proves nothing for A, nor does A's view of the OLD version
    expect((await view(x[1]!.id, users.B!.cookie)).statusCode).toBe(200);
    expect((await view(y[1]!.id, users.A!.cookie)).statusCode).toBe(200);
    // one of the two new versions viewed (by a colleague at A): the refusal names the other
    expect((await view(x[1]!.id, users.A2!.cookie)).statusCode).toBe(200);
    const half = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(half.statusCode).toBe(409);
    expect(half.json().message).toBe(`请先查看以下新版本后再确认：${y[0]!.standardCode} C`);
    expect((await db.noticeRecipient.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('READ');

    expect((await view(y[2]!.id, users.A!.cookie)).statusCode).toBe(200);
    const detail = (await call(noticesApi.supplierFind, { id: n.id }, users.A!.cookie)).json().data;
    expect(detail.changes.every((c: { viewedAt: string | null }) => c.viewedAt !== null)).toBe(true);
    const ok = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe('确认成功');
    const confirmed = ok.json().data;
    expect(confirmed).toMatchObject({ recipientStatus: 'CONFIRMED', alreadyConfirmed: false });
    const sha = new Map([x[1]!, y[2]!].map((f) => [f.id, f.sha256]));
    const expected = [x[1]!, y[2]!]
      .sort((a, b) => a.standardCode.localeCompare(b.standardCode))
      .map((f) => [f.id, f.version, sha.get(f.id)]);
    expect(
      confirmed.confirmedFiles.map((f: { fileId: number; sha256: string; version: string }) => [
        f.fileId,
        f.version,
        f.sha256,
      ]),
    ).toEqual(expected);
    const proof = await db.noticeConfirmedFile.findMany({ where: { recipientId: row.id } });
    for (const p of proof) {
      const log = await db.accessLog.findUniqueOrThrow({ where: { id: p.viewLogId } });
      expect(log).toMatchObject({ action: 'VIEW', outcome: 'SENT', fileId: p.fileId, supplierCode: sup.A.code });
    }
    const rowAfter = await db.noticeRecipient.findUniqueOrThrow({ where: { id: row.id } });
    expect(rowAfter).toMatchObject({
      status: 'CONFIRMED',
      confirmedByAccount: users.A!.account,
      confirmedIp: IP,
      readByAccount: users.A!.account,
    });

    // a repeat is not an error and changes nothing
    const repeat = await call(noticesApi.confirm, { id: n.id }, users.A2!.cookie);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toMatchObject({
      message: '已确认',
      data: { alreadyConfirmed: true, confirmedAt: confirmed.confirmedAt },
    });
    expect(await db.noticeEvent.count({ where: { noticeId: n.id, action: 'CONFIRM' } })).toBe(1);

    // the matrix: A confirmed by whom and when; B still unread
    const matrix = (await call(noticesApi.recipients, { id: n.id, page: 1, results: 10 }, admin)).json();
    const counted = (await call(noticesApi.detail, { id: n.id }, admin)).json().data;
    expect(counted).toMatchObject({ recipientCount: 2, readCount: 1, confirmedCount: 1, overdueCount: 0 });
    expect(matrix.data.map((r: { supplierCode: string; status: string }) => [r.supplierCode, r.status])).toEqual([
      [sup.B.code, 'UNREAD'],
      [sup.A.code, 'CONFIRMED'],
    ]);
    expect(matrix.data[1]).toMatchObject({ confirmedByAccount: users.A!.account, confirmedIp: IP });
    expect(matrix.data[1].confirmedFiles).toHaveLength(2);
    const filtered = (
      await call(noticesApi.recipients, { id: n.id, page: 1, results: 10, state: 'UNREAD' }, admin)
    ).json();
    expect(filtered.data.map((r: { supplierCode: string }) => r.supplierCode)).toEqual([sup.B.code]);
  });

  it('two confirmations of one supplier at once: one confirms, the other is told it is done; one event', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    await view(x[1]!.id, users.B!.cookie);
    const both = await Promise.all([
      call(noticesApi.confirm, { id: n.id }, users.B!.cookie),
      call(noticesApi.confirm, { id: n.id }, users.B!.cookie),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.map((r) => r.json().data.alreadyConfirmed).sort()).toEqual([false, true]);
    expect(new Set(both.map((r) => r.json().data.confirmedAt)).size).toBe(1);
    expect(await db.noticeEvent.count({ where: { noticeId: n.id, action: 'CONFIRM' } })).toBe(1);
    const r = await db.noticeRecipient.findUniqueOrThrow({
      where: { noticeId_supplierCode: { noticeId: n.id, supplierCode: sup.B.code } },
    });
    expect(await db.noticeConfirmedFile.count({ where: { recipientId: r.id } })).toBe(1);
    // confirming without opening first reads it too
    expect(r).toMatchObject({ status: 'CONFIRMED', readByAccount: users.B!.account });
  });
});

describe('409 after withdraw, close, supersede and obsolete', () => {
  it('a withdrawn notice cannot be confirmed (the reason is given), closed or withdrawn again', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    await view(x[1]!.id, users.A!.cookie);
    const noReason = await call(noticesApi.withdraw, { id: n.id, reason: ' ' }, admin);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual([{ field: 'reason', message: '请填写撤回原因' }]);
    const w = await call(noticesApi.withdraw, { id: n.id, reason: '变更内容有误' }, admin);
    expect(w.statusCode).toBe(200);
    expect(w.json().data).toMatchObject({ status: 'WITHDRAWN', withdrawReason: '变更内容有误' });
    const c = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(c.statusCode).toBe(409);
    expect(c.json().message).toBe('该通知已撤回，不能确认（撤回原因：变更内容有误）');
    expect((await call(noticesApi.withdraw, { id: n.id, reason: '再撤回' }, admin)).json().message).toBe(
      '该通知已撤回',
    );
    expect((await call(noticesApi.close, { id: n.id }, admin)).json().message).toBe('该通知当前为「已撤回」，不能关闭');
    // the supplier still sees it, as withdrawn, and opening it reads nothing
    const open = await call(noticesApi.supplierFind, { id: n.id }, users.A!.cookie);
    expect(open.json().data).toMatchObject({
      status: 'WITHDRAWN',
      recipientStatus: 'UNREAD',
      withdrawReason: '变更内容有误',
    });
  });

  it('a notice whose new version was superseded, or obsoleted, cannot be confirmed', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    await view(x[1]!.id, users.A!.cookie);
    await db.standardFile.update({ where: { id: x[1]!.id }, data: { status: 'HISTORY' } });
    const superseded = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(superseded.statusCode).toBe(409);
    expect(superseded.json().message).toBe(
      `${x[0]!.standardCode} 的新版本 B 已被更新的版本替代，本通知不能再确认，请以最新的变更通知为准`,
    );
    await db.standardFile.update({
      where: { id: x[1]!.id },
      data: { status: 'OBSOLETE', obsoletedAt: new Date(), obsoleteReason: '测试' },
    });
    const obsolete = await call(noticesApi.confirm, { id: n.id }, users.A!.cookie);
    expect(obsolete.statusCode).toBe(409);
    expect(obsolete.json().message).toContain('已作废');
  });

  it('a closed notice cannot be confirmed; withdraw and close at once: one wins', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    const both = await Promise.all([
      call(noticesApi.withdraw, { id: n.id, reason: '并发撤回' }, admin),
      call(noticesApi.close, { id: n.id }, admin),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const status = (await db.changeNotice.findUniqueOrThrow({ where: { id: n.id } })).status;
    expect(['WITHDRAWN', 'CLOSED']).toContain(status);
    await view(x[1]!.id, users.B!.cookie);
    const c = await call(noticesApi.confirm, { id: n.id }, users.B!.cookie);
    expect(c.statusCode).toBe(409);
  });
});

describe('suppliers see only their own notices', () => {
  it('supplier C (not a recipient) gets the 404 of a missing notice from every call, and nothing in its lists', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    const missing = await call(noticesApi.supplierFind, { id: 2_000_000_000 }, users.C!.cookie);
    expect(missing.statusCode).toBe(404);
    for (const endpoint of [noticesApi.supplierFind, noticesApi.confirm]) {
      const res = await call(endpoint, { id: n.id }, users.C!.cookie);
      expect(res.statusCode, endpoint.path).toBe(404);
      expect(res.json()).toEqual(missing.json());
    }
    expect(await db.noticeRecipient.count({ where: { noticeId: n.id, supplierCode: sup.C.code } })).toBe(0);
    const inbox = (await call(noticesApi.inbox, { page: 1, results: 100 }, users.C!.cookie)).json();
    expect(inbox.data.some((r: { id: number }) => r.id === n.id)).toBe(false);
    const own = (await call(noticesApi.supplierChangeList, { page: 1, results: 100 }, users.C!.cookie)).json();
    expect(own.data.some((r: { noticeId: number }) => r.noticeId === n.id)).toBe(false);
    // naming another supplier on the shared call changes nothing: a supplier gets its own
    const shared = (
      await call(noticesApi.sharedChangeList, { page: 1, results: 100, supplierCode: sup.A.code }, users.C!.cookie)
    ).json();
    expect(shared.data.some((r: { noticeId: number }) => r.noticeId === n.id)).toBe(false);
    // the manufacturer's calls are not a supplier's at all
    expect((await call(noticesApi.recipients, { id: n.id, page: 1, results: 10 }, users.C!.cookie)).statusCode).toBe(
      403,
    );
    expect((await call(noticesApi.detail, { id: n.id }, users.A!.cookie)).statusCode).toBe(403);
    // while A sees it on the same shared call, and staff pick the supplier
    const a = (
      await call(noticesApi.sharedChangeList, { page: 1, results: 100, supplierCode: sup.C.code }, users.A!.cookie)
    ).json();
    expect(a.data.some((r: { noticeId: number }) => r.noticeId === n.id)).toBe(true);
    const staff = (
      await call(noticesApi.sharedChangeList, { page: 1, results: 100, supplierCode: sup.A.code }, admin)
    ).json();
    expect(staff.data.find((r: { noticeId: number }) => r.noticeId === n.id)).toMatchObject({
      standardCode: x[0]!.standardCode,
      oldVersion: 'A',
      newVersion: 'B',
      recipientStatus: 'UNREAD',
    });
    const noSupplier = await call(noticesApi.sharedChangeList, { page: 1, results: 10 }, admin);
    expect(noSupplier.statusCode).toBe(400);
    expect(noSupplier.json().errors).toEqual([{ field: 'supplierCode', message: '请选择供应商' }]);
  });
});

describe('the bell, overdue and remind', () => {
  it("counts unread, unconfirmed and overdue published notices for the caller's supplier only", async () => {
    // a material of its own: the other tests' notices on m1 must not reach this supplier, nor this one theirs
    const mb = await createMaterial(db, line.code);
    const s = await createSupplier(db, '铃铛');
    await linkSupplier(db, s.code, mb.code);
    await createGrant(db, s.code, mb.code, 'valid');
    const u = await supplierUser('bell', s.code);
    const empty = (await call(noticesApi.unread, {}, u.cookie)).json().data;
    expect(empty).toEqual({ unread: 0, unconfirmed: 0, overdue: 0, latest: [] });

    const first = await published([(await versions(mb.code, 2))[1]!.id]);
    const second = await published([(await versions(mb.code, 2))[1]!.id]);
    const third = await published([(await versions(mb.code, 2))[1]!.id]);
    // the second is overdue: its due day ended yesterday
    await db.changeNotice.update({ where: { id: second.id }, data: { dueDate: new Date(`${day(-1)}T00:00:00Z`) } });
    await call(noticesApi.supplierFind, { id: first.id }, u.cookie);
    await call(noticesApi.withdraw, { id: third.id, reason: '测试撤回' }, admin);

    const bell = (await call(noticesApi.unread, {}, u.cookie)).json().data;
    expect(bell).toMatchObject({ unread: 1, unconfirmed: 2, overdue: 1 });
    // unread first, withdrawn ones not in the bell
    expect(bell.latest.map((r: { id: number }) => r.id)).toEqual([second.id, first.id]);
    expect(bell.latest[0]).toMatchObject({ recipientStatus: 'UNREAD', overdue: true });

    const inbox = (await call(noticesApi.inbox, { page: 1, results: 10 }, u.cookie)).json();
    expect(inbox.total).toBe(3);
    // unread work first, then the newest; the withdrawn one (the newest of all) last
    expect(inbox.data.map((r: { id: number }) => r.id)).toEqual([second.id, first.id, third.id]);
    // 未读 is the bell's count: the withdrawn notice, never opened, is not unread work
    const unread = (await call(noticesApi.inbox, { page: 1, results: 10, state: 'UNREAD' }, u.cookie)).json();
    expect(unread.total).toBe(bell.unread);
    expect(unread.data.map((r: { id: number }) => r.id)).toEqual([second.id]);
    const overdue = (await call(noticesApi.inbox, { page: 1, results: 10, state: 'OVERDUE' }, u.cookie)).json();
    expect(overdue.data.map((r: { id: number }) => r.id)).toEqual([second.id]);
    const detail = (
      await call(noticesApi.supplierDetail, { supplierCode: s.code, page: 1, results: 10, state: 'OVERDUE' }, admin)
    ).json();
    expect(detail.data.map((r: { id: number }) => r.id)).toEqual([second.id]);

    // the other supplier's bell does not move with this one's notices
    const c = (await call(noticesApi.unread, {}, users.C!.cookie)).json().data;
    expect(c.latest.some((r: { id: number }) => [first.id, second.id, third.id].includes(r.id))).toBe(false);
  });

  it('overdue shows in the list filter and the matrix; remind reaches the overdue once an hour; closing keeps who was overdue', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    const early = await call(noticesApi.remind, { id: n.id }, admin);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('尚未到确认截止日期，没有逾期的供应商');

    await db.changeNotice.update({ where: { id: n.id }, data: { dueDate: new Date(`${day(-2)}T00:00:00Z`) } });
    await view(x[1]!.id, users.B!.cookie);
    await call(noticesApi.confirm, { id: n.id }, users.B!.cookie);

    const list = (
      await call(noticesApi.page, { page: 1, results: 10, number: n.number, overdueOnly: '1' }, admin)
    ).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ id: n.id, recipientCount: 2, confirmedCount: 1, overdueCount: 1 });
    const matrix = (
      await call(noticesApi.recipients, { id: n.id, page: 1, results: 10, state: 'OVERDUE' }, admin)
    ).json();
    expect(matrix.data.map((r: { supplierCode: string; overdue: boolean }) => [r.supplierCode, r.overdue])).toEqual([
      [sup.A.code, true],
    ]);

    const first = await call(noticesApi.remind, { id: n.id }, admin);
    expect(first.json()).toMatchObject({ message: '已催办 1 家供应商', data: { reminded: 1, skipped: 0 } });
    const again = await call(noticesApi.remind, { id: n.id }, admin);
    expect(again.json().data).toEqual({ reminded: 0, skipped: 1 });
    // naming one that confirmed (B) or one that is no recipient (C): a field error, nothing reminded
    const named = await call(
      noticesApi.remind,
      { id: n.id, supplierCodes: [sup.A.code, sup.B.code, sup.C.code] },
      admin,
    );
    expect(named.statusCode).toBe(400);
    expect(named.json().errors).toEqual([
      { field: 'supplierCodes.1', message: `供应商 ${sup.B.code} 不是该通知待确认的接收方，无需催办` },
      { field: 'supplierCodes.2', message: `供应商 ${sup.C.code} 不是该通知待确认的接收方，无需催办` },
    ]);
    const a = await db.noticeRecipient.findUniqueOrThrow({
      where: { noticeId_supplierCode: { noticeId: n.id, supplierCode: sup.A.code } },
    });
    expect(a.remindCount).toBe(1);

    const closed = await call(noticesApi.close, { id: n.id }, admin);
    expect(closed.json().data).toMatchObject({ status: 'CLOSED', overdueCount: 1 });
    expect((await db.noticeEvent.findFirstOrThrow({ where: { noticeId: n.id, action: 'CLOSE' } })).detail).toBe(
      '关闭时 1 家供应商未确认',
    );
    expect((await call(noticesApi.remind, { id: n.id }, admin)).json().message).toBe(
      '该通知当前为「已关闭」，只有已发布的通知可以催办',
    );
  });
});

describe('the open-recipient counter on the notice (change_notice.open_recipient_count)', () => {
  /** The counter and what the recipient rows say it should be (not confirmed, while confirmable). */
  async function counter(id: number) {
    const n = await db.changeNotice.findUniqueOrThrow({
      where: { id },
      select: { openRecipientCount: true, status: true },
    });
    const open = await db.noticeRecipient.count({ where: { noticeId: id, status: { not: 'CONFIRMED' } } });
    return { stored: n.openRecipientCount, status: n.status, open };
  }

  /** Real concurrent HTTP requests to the listening app, not injected ones. */
  let base: string;
  const post = <E extends EndpointDef>(endpoint: E, body: EndpointBody<E>, cookie: string) =>
    fetch(`${base}${api(endpoint.path)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, json: await r.json() }));

  /** A material of its own with `k` suppliers holding valid grants, each with a user who viewed its new version. */
  async function wideNotice(k: number) {
    const m = await createMaterial(db, line.code);
    const who: { code: string; cookie: string }[] = [];
    for (let i = 0; i < k; i++) {
      const s = await createSupplier(db, `计数${i}`);
      await linkSupplier(db, s.code, m.code);
      await createGrant(db, s.code, m.code, 'valid');
      const u = await supplierUser(`count-${s.code}`, s.code);
      who.push({ code: s.code, cookie: u.cookie });
    }
    const x = await versions(m.code, 2);
    const n = await published([x[1]!.id]);
    for (const w of who) expect((await view(x[1]!.id, w.cookie)).statusCode).toBe(200);
    return { n, who };
  }

  beforeAll(async () => {
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('publish sets it to the recipients; concurrent confirms (repeats included) take off one each; overdue reads it; withdraw zeroes it', async () => {
    const { n, who } = await wideNotice(8);
    expect(n.recipientCount).toBe(8);
    expect(await counter(n.id)).toEqual({ stored: 8, status: 'PUBLISHED', open: 8 });

    // six suppliers confirm at once, two of them twice: 8 requests in flight together
    const confirming = [...who.slice(0, 6), who[0]!, who[1]!];
    const answers = await Promise.all(confirming.map((w) => post(noticesApi.confirm, { id: n.id }, w.cookie)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((a) => a.json.data.alreadyConfirmed === false)).toHaveLength(6);
    expect(await counter(n.id)).toEqual({ stored: 2, status: 'PUBLISHED', open: 2 });

    // past due: the list's overdue filter and its count come from the counter
    await db.changeNotice.update({ where: { id: n.id }, data: { dueDate: new Date(`${day(-1)}T00:00:00Z`) } });
    const overdue = (
      await call(noticesApi.page, { page: 1, results: 10, number: n.number, overdueOnly: '1' }, admin)
    ).json();
    expect(
      overdue.data.map((r: { id: number; overdueCount: number; confirmedCount: number }) => [
        r.id,
        r.overdueCount,
        r.confirmedCount,
      ]),
    ).toEqual([[n.id, 2, 6]]);

    const w = await call(noticesApi.withdraw, { id: n.id, reason: '计数测试' }, admin);
    expect(w.statusCode).toBe(200);
    expect(w.json().data).toMatchObject({ status: 'WITHDRAWN', overdueCount: 0 });
    expect(await counter(n.id)).toEqual({ stored: 0, status: 'WITHDRAWN', open: 2 });
    const late = await post(noticesApi.confirm, { id: n.id }, who[7]!.cookie);
    expect(late.status).toBe(409);
    expect((await counter(n.id)).stored).toBe(0);
    const after = (
      await call(noticesApi.page, { page: 1, results: 10, number: n.number, overdueOnly: '1' }, admin)
    ).json();
    expect(after.data).toEqual([]);
  });

  it('confirms racing a withdraw never leave it below 0; confirms racing a close leave exactly the unconfirmed', async () => {
    const w = await wideNotice(5);
    const withdrawing = await Promise.all([
      ...w.who.map((s) => post(noticesApi.confirm, { id: w.n.id }, s.cookie)),
      post(noticesApi.withdraw, { id: w.n.id, reason: '并发撤回' }, admin),
    ]);
    expect(withdrawing.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(withdrawing.at(-1)!.status).toBe(200);
    const confirmedBeforeWithdraw = withdrawing.slice(0, -1).filter((a) => a.status === 200).length;
    expect(await db.noticeRecipient.count({ where: { noticeId: w.n.id, status: 'CONFIRMED' } })).toBe(
      confirmedBeforeWithdraw,
    );
    expect(await counter(w.n.id)).toEqual({ stored: 0, status: 'WITHDRAWN', open: 5 - confirmedBeforeWithdraw });

    const c = await wideNotice(5);
    const closing = await Promise.all([
      ...c.who.map((s) => post(noticesApi.confirm, { id: c.n.id }, s.cookie)),
      post(noticesApi.close, { id: c.n.id }, admin),
    ]);
    expect(closing.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    const state = await counter(c.n.id);
    expect(state.status).toBe('CLOSED');
    expect(state.stored).toBe(state.open);
    const closeEvent = await db.noticeEvent.findFirstOrThrow({ where: { noticeId: c.n.id, action: 'CLOSE' } });
    expect(closeEvent.detail).toBe(state.open ? `关闭时 ${state.open} 家供应商未确认` : '全部供应商已确认');
  });
});

describe('change records and the export', () => {
  it('searchStandardChange says which version replaced which, by which notice; drafts are not records', async () => {
    const x = await versions(m1.code, 3);
    const d = await draft([x[2]!.id]);
    const before = (
      await call(noticesApi.changes, { page: 1, results: 10, standardCode: x[0]!.standardCode }, admin)
    ).json();
    expect(before.total).toBe(0);
    await call(noticesApi.publish, { id: d.id }, admin);
    const after = (
      await call(noticesApi.changes, { page: 1, results: 10, standardCode: x[0]!.standardCode }, admin)
    ).json();
    expect(after.data).toEqual([
      expect.objectContaining({
        noticeId: d.id,
        noticeNumber: d.number,
        oldVersion: 'B',
        newVersion: 'C',
        newFileId: x[2]!.id,
        newFileStatus: 'EFFECTIVE',
        noticeStatus: 'PUBLISHED',
      }),
    ]);
  });

  it('exports the recipients matrix as .xlsx with every recipient and the changes', async () => {
    const x = await versions(m1.code, 2);
    const n = await published([x[1]!.id]);
    const res = await call(noticesApi.exportRecipients, { id: n.id }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain(n.number);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('接收方')!;
    expect(sheet.getRow(1).getCell(1).value).toBe('供应商编码');
    const codes = [2, 3].map((i) => sheet.getRow(i).getCell(1).value);
    expect(codes).toEqual([sup.A.code, sup.B.code].sort());
    expect(sheet.getRow(2).getCell(4).value).toBe('未读');
    const info = wb.getWorksheet('变更通知')!;
    expect(info.getRow(1).getCell(2).value).toBe(n.number);

    const unknown = await call(noticesApi.exportRecipients, { id: 2_000_000_000 }, admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('变更通知不存在或无权查看');
  });
});
