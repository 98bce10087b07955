/**
 * Countersign lists through the real calls on a real Postgres: the full round trip
 * (draft → issue → supplier signs with a condition → internal signers in order → completed), a
 * return ending the round and the reissue keeping the earlier round, out-of-turn and double submits
 * refused with 409 under real concurrent requests, the draft's field errors, suppliers kept to
 * their own lists on every call, and the sign-off sheet: its text (extracted with pdf.js) names
 * every signer and every file hash, each copy stamped for its taker and logged as a download.
 */
import { countersignApi, noticesApi } from '@esm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CountersignDecision, CountersignDetail } from '@esm/contracts';
import { buildTestApp, hasChinese, holdInserts, login, pdfPages, apiCaller } from './helpers.ts';
import {
  createFileVersion,
  createMaterial,
  createProductLine,
  createSupplier,
  createSupplierUser,
  linkSupplier,
  samplePdf,
  tempStorage,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const IP = '10.12.12.12';
const DAY = 86_400_000;

const call = apiCaller(t.app, { headers: { 'user-agent': 'vitest-countersign' }, remoteAddress: IP });

/** A day `days` from today, YYYY-MM-DD in UTC+8. */
const day = (days: number) => new Date(Date.now() + 8 * 3600_000 + days * DAY).toISOString().slice(0, 10);

/** The text of a PDF, as pdf.js extracts it. */
const pdfText = async (bytes: Buffer) => (await pdfPages(bytes)).join('\n');

const c: Record<'demo3' | 'demo7' | 'demo8' | 'demo9' | 'demo2' | 'demo4' | 'other', string> = {} as never;
const ids: Record<'demo3' | 'demo8' | 'demo9', number> = {} as never;
let fileIds: number[] = [];
let otherSupplier: { code: string };

async function draft(extra: Record<string, unknown> = {}) {
  const res = await call(
    countersignApi.create,
    {
      title: '门体钣金图纸会签',
      supplierCode: 'S001',
      items: '1. 公差按新版执行\n2. 首件送检',
      dueDate: day(7),
      fileIds,
      signerIds: [ids.demo8, ids.demo9],
      ...extra,
    },
    c.demo3,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as CountersignDetail;
}

const detail = async (id: number, cookie = c.demo3) =>
  (await call(countersignApi.detail, { id }, cookie)).json().data as CountersignDetail;
const sign = (
  id: number,
  round: number,
  step: number,
  cookie: string,
  decision: CountersignDecision = 'AGREE',
  comment?: string,
) => call(countersignApi.sign, { id, round, step, decision, comment }, cookie);
const submit = (
  id: number,
  round: number,
  cookie = c.demo2,
  decision: CountersignDecision = 'AGREE',
  comment?: string,
) => call(countersignApi.submit, { id, round, step: 0, decision, comment }, cookie);

beforeAll(async () => {
  for (const a of ['demo3', 'demo7', 'demo8', 'demo9', 'demo2', 'demo4'] as const) c[a] = await login(t.app, a);
  for (const a of ['demo3', 'demo8', 'demo9'] as const)
    ids[a] = (await db.user.findUniqueOrThrow({ where: { account: a } })).id;
  const line = await createProductLine(db);
  const m = await createMaterial(db, line.code);
  // a list's files are of materials its supplier supplies
  for (const s of ['S001', 'S002']) await linkSupplier(db, s, m.code);
  const pdf = await samplePdf(1);
  const a = await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf });
  const b = await createFileVersion(db, files.storage, {
    materialCode: m.code,
    type: 'pdf',
    bytes: await samplePdf(2),
  });
  fileIds = [a.id, b.id];
  otherSupplier = await createSupplier(db, '会签');
  const other = await createSupplierUser(t.db, otherSupplier.code);
  c.other = await login(t.app, other.account);
});

afterAll(async () => {
  await t.close();
  await files.remove();
});

describe('a draft', () => {
  it('refuses bad content with field errors in Chinese, all at once', async () => {
    const res = await call(
      countersignApi.create,
      { title: '', supplierCode: 'NOPE', items: 'x', dueDate: day(-1), fileIds: [], signerIds: [ids.demo8, ids.demo8] },
      c.demo3,
    );
    expect(res.statusCode).toBe(400);
    const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['title', 'fileIds', 'signerIds']));
    const db400 = await call(
      countersignApi.create,
      {
        title: '标题',
        supplierCode: 'NOPE',
        items: 'x',
        dueDate: day(-1),
        fileIds: [2_000_000_000],
        signerIds: [ids.demo8],
      },
      c.demo3,
    );
    expect(db400.statusCode).toBe(400);
    expect(
      (db400.json().errors as { field: string; message: string }[]).map((e) => `${e.field}: ${e.message}`),
    ).toEqual([
      'supplierCode: 供应商不存在：NOPE',
      'dueDate: 会签截止日期不能早于今天',
      'fileIds.0: 文件版本不存在（编号 2000000000）',
    ]);
    const supplierAsSigner = await call(
      countersignApi.create,
      {
        title: '标题',
        supplierCode: 'S001',
        items: 'x',
        dueDate: day(3),
        fileIds,
        signerIds: [(await db.user.findUniqueOrThrow({ where: { account: 'demo2' } })).id],
      },
      c.demo3,
    );
    expect(supplierAsSigner.statusCode).toBe(400);
    expect(supplierAsSigner.json().message).toContain('不能作为我方会签人');
  });

  it('links only a published change notice', async () => {
    const draftNotice = await db.changeNotice.findFirst({ where: { status: 'DRAFT' }, select: { id: true } });
    if (draftNotice) {
      const res = await call(
        countersignApi.create,
        {
          title: '标题',
          supplierCode: 'S001',
          items: 'x',
          dueDate: day(3),
          fileIds,
          signerIds: [ids.demo8],
          noticeId: draftNotice.id,
        },
        c.demo3,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].field).toBe('noticeId');
    }
    const published = await db.changeNotice.findFirstOrThrow({
      where: { status: 'PUBLISHED', recipients: { some: { supplierCode: 'S001' } } },
      select: { id: true, number: true },
    });
    const d = await draft({ noticeId: published.id });
    expect(d.noticeNumber).toBe(published.number);
    // one that went to other suppliers only: another supplier's notice is not S001's to read
    const elsewhere = await db.changeNotice.findFirst({
      where: { status: 'PUBLISHED', recipients: { none: { supplierCode: 'S001' } } },
      select: { id: true, number: true },
    });
    if (elsewhere) {
      const res = await call(
        countersignApi.create,
        {
          title: '标题',
          supplierCode: 'S001',
          items: 'x',
          dueDate: day(3),
          fileIds,
          signerIds: [ids.demo8],
          noticeId: elsewhere.id,
        },
        c.demo3,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([
        { field: 'noticeId', message: `变更通知 ${elsewhere.number} 未发给该供应商，只能关联发给该供应商的通知` },
      ]);
    }
  });

  it('the form’s pickers offer only what a list for the chosen supplier may name', async () => {
    const files = async (supplierCode?: string) =>
      ((await call(countersignApi.files, { supplierCode }, c.demo3)).json().data as { fileId: number }[]).map(
        (f) => f.fileId,
      );
    expect(await files('S001')).toEqual(expect.arrayContaining(fileIds));
    expect(await files(otherSupplier.code)).not.toEqual(expect.arrayContaining([fileIds[0]]));
    const notices = async (recipientCode: string) =>
      (
        (await call(noticesApi.page, { status: 'PUBLISHED', recipientCode, results: 50 }, c.demo3)).json().data as {
          id: number;
        }[]
      ).map((n) => n.id);
    const sentTo = async (code: string) =>
      (
        await db.noticeRecipient.findMany({
          where: { supplierCode: code, notice: { status: 'PUBLISHED' } },
          select: { noticeId: true },
        })
      )
        .map((r) => r.noticeId)
        .sort();
    expect((await notices('S001')).sort()).toEqual(await sentTo('S001'));
    expect(await notices(otherSupplier.code)).toEqual([]);
  });

  it('names only files of materials its supplier supplies', async () => {
    const foreign = await db.standardFile.findUniqueOrThrow({
      where: { id: fileIds[0] },
      select: { standardCode: true, version: true, materialCode: true },
    });
    const res = await call(
      countersignApi.create,
      {
        title: '标题',
        supplierCode: otherSupplier.code,
        items: 'x',
        dueDate: day(3),
        fileIds: [fileIds[0]],
        signerIds: [ids.demo8],
      },
      c.demo3,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      {
        field: 'fileIds.0',
        message: `${foreign.standardCode} ${foreign.version} 属于物料 ${foreign.materialCode}，该供应商不供应此物料`,
      },
    ]);
  });

  it('is edited and issued only by its issuer; the supplier does not see it before issue', async () => {
    const d = await draft();
    expect(d).toMatchObject({ status: 'DRAFT', round: 0, actions: ['edit', 'issue', 'cancel'] });
    expect((await detail(d.id, c.demo8)).actions).toEqual([]);
    expect((await call(countersignApi.issue, { id: d.id }, c.demo8)).statusCode).toBe(403);
    expect((await call(countersignApi.supplierDetail, { id: d.id }, c.demo2)).statusCode).toBe(404);
    const cancel = await call(countersignApi.cancel, { id: d.id, reason: '重复创建' }, c.demo3);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.status).toBe('CANCELLED');
    const again = await call(countersignApi.issue, { id: d.id }, c.demo3);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该会签单当前为「已取消」，不能下发');
  });
});

describe('the round trip', () => {
  let id: number;

  it('issue → supplier signs with a condition → internal signers in order → completed', async () => {
    const d = await draft();
    id = d.id;
    const issued = await call(countersignApi.issue, { id }, c.demo3);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data).toMatchObject({
      status: 'SUPPLIER_SIGNING',
      round: 1,
      step: 0,
      waitingFor: '青岛海达精密机械有限公司',
    });

    // out of turn: the internal signers before the supplier, demo9 before demo8
    const early = await sign(id, 1, 0, c.demo8);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('尚未轮到我方会签，当前等待供应商会签');

    const info = (await call(countersignApi.supplierDetail, { id }, c.demo2)).json().data as CountersignDetail;
    expect(info.actions).toEqual(['sign']);
    expect(info.events).toEqual([]);
    const noCondition = await submit(id, 1, c.demo2, 'CONDITIONAL');
    expect(noCondition.statusCode).toBe(400);
    expect(noCondition.json().errors[0]).toEqual({ field: 'comment', message: '请填写同意的条件' });
    const signed = await submit(id, 1, c.demo2, 'CONDITIONAL', '首批交付前完成工装验证');
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().data).toEqual({ status: 'INTERNAL_SIGNING', round: 1, step: 1 });

    const wrongTurn = await sign(id, 1, 1, c.demo9);
    expect(wrongTurn.statusCode).toBe(409);
    expect(wrongTurn.json().message).toBe('尚未轮到您会签，请等待前面的会签人');
    const notASigner = await sign(id, 1, 1, c.demo7);
    expect(notASigner.statusCode).toBe(409);
    expect(hasChinese(notASigner.json().message)).toBe(true);

    expect((await sign(id, 1, 1, c.demo8)).statusCode).toBe(200);
    const last = await sign(id, 1, 2, c.demo9, 'AGREE');
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json()).toMatchObject({ message: '会签完成，已生成签核单', data: { status: 'COMPLETED' } });

    const done = await detail(id);
    expect(done).toMatchObject({ status: 'COMPLETED', waitingFor: null, actions: ['download'] });
    expect(done.rounds).toHaveLength(1);
    const [r] = done.rounds;
    expect(r!.outcome).toBe('COMPLETED');
    expect(r!.signatures.map((s) => [s.step, s.userAccount, s.decision, s.supplierCode ?? s.department])).toEqual([
      [0, 'demo2', 'CONDITIONAL', 'S001'],
      [1, 'demo8', 'AGREE', '图纸管理员'],
      [2, 'demo9', 'AGREE', '图纸管理员'],
    ]);
    expect(new Set(r!.signatures.map((s) => s.contentSha256))).toEqual(new Set([r!.contentSha256]));
    expect(r!.signatures.every((s) => s.ip === IP)).toBe(true);
    expect(r!.files.map((f) => f.sha256)).toEqual(done.files.map((f) => f.sha256));
    expect(done.events.map((e) => e.action)).toEqual(['CREATE', 'ISSUE', 'SIGN', 'SIGN', 'SIGN', 'COMPLETE']);
  });

  it('the sheet names every signer and every file hash; each copy is stamped and logged', async () => {
    const done = await detail(id);
    for (const [cookie, path, account, stampName] of [
      [c.demo3, countersignApi.sheet, 'demo3', '内部'],
      [c.demo2, countersignApi.supplierSheet, 'demo2', '青岛海达精密机械有限公司'],
    ] as const) {
      const before = await db.accessLog.count({
        where: { action: 'DOWNLOAD', userAccount: account, standardCode: done.number },
      });
      const res = await call(path, { id }, cookie);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(String(res.headers['content-disposition'])).toContain(
        encodeURIComponent(`会签单签核单_${done.number}.pdf`),
      );
      const text = await pdfText(res.rawPayload);
      for (const name of ['青岛海达', '首批交付前完成工装验证', ...done.rounds[0]!.signatures.map((s) => s.userName)])
        expect(text).toContain(name);
      for (const f of done.files) expect(text).toContain(f.sha256);
      expect(text).toContain(done.rounds[0]!.contentSha256);
      expect(text).toContain(`${stampName} ${account}`); // the watermark of this taker
      expect(
        await db.accessLog.count({
          where: {
            action: 'DOWNLOAD',
            outcome: 'SENT',
            delivery: { complete: true },
            userAccount: account,
            standardCode: done.number,
            fileName: `会签单签核单_${done.number}.pdf`,
          },
        }),
      ).toBe(before + 1);
    }
    const events = (await detail(id)).events.filter((e) => e.action === 'DOWNLOAD');
    expect(events.map((e) => e.userAccount)).toEqual(['demo3', 'demo2']);
  });

  it('no sheet before completion', async () => {
    const d = await draft();
    const res = await call(countersignApi.sheet, { id: d.id }, c.demo3);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('会签单尚未完成：全部会签后才生成签核单');
  });
});

describe('return and reissue', () => {
  it('a return ends the round; the reissue opens round 2 with the edited content and keeps round 1', async () => {
    const d = await draft();
    await call(countersignApi.issue, { id: d.id }, c.demo3);
    expect((await submit(d.id, 1)).statusCode).toBe(200);
    const noReason = await sign(d.id, 1, 1, c.demo8, 'RETURN');
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0].message).toBe('请填写退回原因');
    const returned = await sign(d.id, 1, 1, c.demo8, 'RETURN', '第2项需补充检验标准');
    expect(returned.statusCode, returned.body).toBe(200);
    expect(returned.json().data.status).toBe('RETURNED');
    const after = await detail(d.id);
    expect(after.actions).toEqual(['edit', 'issue', 'cancel']);
    expect((await submit(d.id, 1)).statusCode).toBe(409);

    const edit = await call(
      countersignApi.update,
      {
        id: d.id,
        title: d.title,
        supplierCode: 'S001',
        items: '1. 公差按新版执行\n2. 首件送检，按 Q/ESM 检验标准',
        dueDate: day(10),
        fileIds: [fileIds[0]],
        signerIds: [ids.demo8, ids.demo9],
      },
      c.demo3,
    );
    expect(edit.statusCode, edit.body).toBe(200);
    const reissued = await call(countersignApi.issue, { id: d.id }, c.demo3);
    expect(reissued.json().data).toMatchObject({ status: 'SUPPLIER_SIGNING', round: 2, step: 0 });
    const two = await detail(d.id);
    expect(two.rounds.map((r) => [r.round, r.outcome, r.files.length, r.signatures.length])).toEqual([
      [1, 'RETURNED', 2, 2],
      [2, null, 1, 0],
    ]);
    expect(two.rounds[0]!.signatures[1]).toMatchObject({
      userAccount: 'demo8',
      decision: 'RETURN',
      comment: '第2项需补充检验标准',
    });
    expect(two.rounds[0]!.items).toBe('1. 公差按新版执行\n2. 首件送检');
    expect(two.rounds[1]!.contentSha256).not.toBe(two.rounds[0]!.contentSha256);
    // a signature of the old round is stale
    const stale = await submit(d.id, 1);
    expect(stale.statusCode).toBe(409);
  });
});

describe('concurrency', () => {
  it('a double submit of the same step gives one signature and one 409', async () => {
    const d = await draft();
    await call(countersignApi.issue, { id: d.id }, c.demo3);
    const both = await Promise.all([submit(d.id, 1), submit(d.id, 1)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.statusCode === 409)!;
    expect(refused.json().message).toMatch(/不能重复提交|已有新的进展|已会签/);
    expect(await db.countersignSignature.count({ where: { countersignId: d.id } })).toBe(1);

    const internal = await Promise.all([
      sign(d.id, 1, 1, c.demo8),
      sign(d.id, 1, 1, c.demo8),
      sign(d.id, 1, 1, c.demo8, 'RETURN', '退回'),
    ]);
    expect(internal.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await db.countersignSignature.count({ where: { countersignId: d.id } })).toBe(2);
    expect(
      await db.countersignEvent.count({ where: { countersignId: d.id, action: { in: ['SIGN', 'RETURN'] } } }),
    ).toBe(2);
  });

  it('a double issue issues once', async () => {
    const d = await draft();
    const both = await Promise.all([
      call(countersignApi.issue, { id: d.id }, c.demo3),
      call(countersignApi.issue, { id: d.id }, c.demo3),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().message).toBe('该会签单已下发，不能重复下发');
    expect(await db.countersignRound.count({ where: { countersignId: d.id } })).toBe(1);
  });
});

describe('an edit in flight', () => {
  it('an issue sent while an edit is still writing waits for it: the round freezes the edited title, files and signers', async () => {
    const d = await draft();
    // the edit stops at its event row, the list itself written but not committed
    const held = await holdInserts('countersign_event');
    let edit: ReturnType<typeof call>;
    let issue: typeof edit;
    try {
      edit = call(
        countersignApi.update,
        {
          id: d.id,
          title: '改后的标题',
          supplierCode: 'S001',
          items: '1. 公差按新版执行',
          dueDate: day(7),
          fileIds: [fileIds[1]],
          signerIds: [ids.demo9],
        },
        c.demo3,
      );
      const editing = await held.writer();
      issue = call(countersignApi.issue, { id: d.id }, c.demo3);
      await held.waitBehind(editing);
    } finally {
      await held.release();
    }
    expect((await edit!).statusCode, (await edit!).body).toBe(200);
    expect((await issue!).statusCode, (await issue!).body).toBe(200);
    const round = await db.countersignRound.findUniqueOrThrow({
      where: { countersignId_round: { countersignId: d.id, round: 1 } },
    });
    const content = round.content as { title: string; files: { fileId: number }[]; signers: { userId: number }[] };
    expect({
      title: content.title,
      files: content.files.map((f) => f.fileId),
      signers: content.signers.map((x) => x.userId),
    }).toEqual({ title: '改后的标题', files: [fileIds[1]], signers: [ids.demo9] });
    // and the round's signer is the one who may sign it after the supplier
    expect((await submit(d.id, 1)).statusCode).toBe(200);
    expect((await sign(d.id, 1, 1, c.demo9)).statusCode).toBe(200);
  });
});

describe('supplier isolation', () => {
  it('another supplier finds nothing of S001 on any call', async () => {
    const d = await draft();
    await call(countersignApi.issue, { id: d.id }, c.demo3);
    for (const cookie of [c.demo4, c.other]) {
      const list = (await call(countersignApi.supplierPage, {}, cookie)).json();
      expect(list.data.map((r: { id: number }) => r.id)).not.toContain(d.id);
      for (const endpoint of [countersignApi.supplierDetail, countersignApi.supplierSheet]) {
        const res = await call(endpoint, { id: d.id }, cookie);
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('会签单不存在');
      }
      const res = await submit(d.id, 1, cookie);
      expect(res.statusCode).toBe(404);
      // as for an id that does not exist
      expect((await call(countersignApi.supplierDetail, { id: 2_000_000_000 }, cookie)).json().message).toBe(
        '会签单不存在',
      );
    }
    const own = (await call(countersignApi.supplierPage, { results: 100 }, c.demo2)).json();
    expect(own.data.every((r: { supplierCode: string }) => r.supplierCode === 'S001')).toBe(true);
    expect(own.data.map((r: { id: number }) => r.id)).toContain(d.id);
    expect(own.data.some((r: { status: string }) => r.status === 'DRAFT')).toBe(false);
    // suppliers cannot call the internal side
    expect((await call(countersignApi.page, {}, c.demo2)).statusCode).toBe(403);
  });

  it('the internal list filters by supplier, state, signer and overdue', async () => {
    const page = async (body: object) =>
      (await call(countersignApi.page, { results: 100, ...body }, c.demo3)).json() as {
        data: { supplierCode: string; status: string; signerNames: string; overdue: boolean }[];
        total: number;
      };
    expect((await page({ supplierCode: 'S001' })).data.every((r) => r.supplierCode === 'S001')).toBe(true);
    expect((await page({ status: 'COMPLETED' })).data.every((r) => r.status === 'COMPLETED')).toBe(true);
    const demo9 = await db.user.findUniqueOrThrow({ where: { account: 'demo9' } });
    const bySigner = (await page({ signer: 'demo9' })).data;
    expect(bySigner.length).toBeGreaterThan(0);
    expect(bySigner.every((r) => r.signerNames.split(' → ').includes(demo9.name))).toBe(true);
    expect((await page({ overdueOnly: '1' })).data.every((r) => r.overdue)).toBe(true);
    const bad = await call(countersignApi.page, { status: 'NOPE' }, c.demo3);
    expect(bad.statusCode).toBe(400);
  });
});

describe("the demo seed's batch (writeCountersignHistories)", () => {
  /** Everything the calls write about some lists, in id order, ids of the rows left out (the lists' own kept: the numbers follow them). */
  async function rowsOf(listIds: number[]) {
    const where = { countersignId: { in: listIds } };
    // a row's id and its place in the audit chain (seq, hashes) depend on when it was written, not on what
    const strip = <T extends { id: number }>(rows: T[]) =>
      rows.map((row) => {
        const {
          id: _id,
          chainSeq: _seq,
          prevHash: _prev,
          rowHash: _hash,
          ...rest
        } = row as T & { chainSeq?: unknown; prevHash?: unknown; rowHash?: unknown };
        return rest;
      });
    return {
      lists: await db.countersign.findMany({ where: { id: { in: listIds } }, orderBy: { id: 'asc' } }),
      rounds: await db.countersignRound.findMany({ where, orderBy: [{ countersignId: 'asc' }, { round: 'asc' }] }),
      signatures: strip(await db.countersignSignature.findMany({ where, orderBy: { id: 'asc' } })),
      events: strip(await db.countersignEvent.findMany({ where, orderBy: { id: 'asc' } })),
    };
  }

  it('writes exactly the rows the calls write one after another, round hashes included', async () => {
    const { createDraft, updateDraft, issueCountersign, submitSignature, cancelCountersign } =
      await import('../src/modules/countersign/transitions.ts');
    const { sessionUsers, writeCountersignHistories } = await import('../src/modules/countersign/demo.ts');
    const { ALL_BUTTONS } = await import('../src/lib/permission-rules.ts');
    type Histories = Parameters<typeof writeCountersignHistories>[1];
    const u = await sessionUsers(db, ['demo2', 'demo3', 'demo4', 'demo8', 'demo9'] as const);
    const internal = { kind: 'internal', buttons: ALL_BUTTONS } as const;
    const client = { ip: IP, userAgent: 'vitest-countersign' };
    const at = (days: number, hours = 0) => new Date(Date.now() + days * DAY + hours * 3600_000);
    const published = await db.changeNotice.findFirstOrThrow({
      where: { status: 'PUBLISHED', recipients: { some: { supplierCode: 'S001' } } },
      select: { id: true },
    });
    const draft = {
      title: '批量写入与逐次调用一致',
      supplierCode: 'S001',
      items: '1. 首件送检',
      dueDate: day(6),
      fileIds,
      signerIds: [ids.demo8, ids.demo9],
      noticeId: published.id,
    };
    const histories: Histories = [
      {
        issuer: u.demo3,
        client,
        draft,
        createdAt: at(-10),
        steps: [
          { kind: 'issue', at: at(-9) },
          {
            kind: 'sign',
            user: u.demo2,
            side: { kind: 'supplier', supplierCode: 'S001' },
            client,
            submit: { round: 1, step: 0, decision: 'CONDITIONAL', comment: '两周内按抽检执行' },
            at: at(-8),
          },
          {
            kind: 'sign',
            user: u.demo8,
            side: internal,
            client,
            submit: { round: 1, step: 1, decision: 'RETURN', comment: '写明检测频次' },
            at: at(-7),
          },
          { kind: 'edit', draft: { ...draft, items: '1. 首件送检；量产后每批抽检 5 件' }, at: at(-6) },
          { kind: 'issue', at: at(-5) },
          {
            kind: 'sign',
            user: u.demo2,
            side: { kind: 'supplier', supplierCode: 'S001' },
            client,
            submit: { round: 2, step: 0, decision: 'AGREE' },
            at: at(-4),
          },
          {
            kind: 'sign',
            user: u.demo8,
            side: internal,
            client,
            submit: { round: 2, step: 1, decision: 'AGREE' },
            at: at(-3),
          },
          {
            kind: 'sign',
            user: u.demo9,
            side: internal,
            client,
            submit: { round: 2, step: 2, decision: 'AGREE' },
            at: at(-2),
          },
        ],
      },
      {
        issuer: u.demo3,
        client,
        draft: {
          ...draft,
          title: '退回后取消',
          supplierCode: 'S002',
          noticeId: undefined,
          fileIds: [...fileIds].reverse(),
        },
        createdAt: at(-4),
        steps: [
          { kind: 'issue', at: at(-3, 1) },
          {
            kind: 'sign',
            user: u.demo4,
            side: { kind: 'supplier', supplierCode: 'S002' },
            client,
            submit: { round: 1, step: 0, decision: 'RETURN', comment: '已停产' },
            at: at(-3, 2),
          },
          { kind: 'cancel', reason: '已停产，取消', at: at(-3, 3) },
        ],
      },
      { issuer: u.demo3, client, draft: { ...draft, title: '只是草稿' }, createdAt: at(-1), steps: [] },
    ];

    // through the calls, one after another
    const called: number[] = [];
    for (const h of histories) {
      const id = await createDraft(db, h.issuer, h.draft, h.client, h.createdAt);
      called.push(id);
      for (const s of h.steps) {
        if (s.kind === 'edit') await updateDraft(db, h.issuer, id, s.draft, h.client, s.at);
        else if (s.kind === 'issue') await issueCountersign(db, h.issuer, id, h.client, s.at);
        else if (s.kind === 'sign') await submitSignature(db, s.user, { id, ...s.submit }, s.side, s.client, s.at);
        else await cancelCountersign(db, h.issuer, id, s.reason, h.client, s.at);
      }
    }
    const viaCalls = await rowsOf(called);
    expect(viaCalls.lists.map((l) => l.status)).toEqual(['COMPLETED', 'CANCELLED', 'DRAFT']);
    expect(viaCalls.signatures).toHaveLength(6);

    // the same histories in one batch, from the same ids (so the same numbers, which the hashes cover)
    await db.countersign.deleteMany({ where: { id: { in: called } } });
    await db.$queryRaw`SELECT setval(pg_get_serial_sequence('countersign', 'id'), ${called[0]!}::int, false)`;
    const batched = await writeCountersignHistories(db, histories);
    expect(batched).toEqual(called);
    expect(await rowsOf(batched)).toEqual(viaCalls);

    // and the service reads them as it reads its own
    const done = await detail(batched[0]!);
    expect(done.rounds.map((r) => [r.round, r.outcome, r.signatures.length])).toEqual([
      [1, 'RETURNED', 2],
      [2, 'COMPLETED', 3],
    ]);
    expect(done.rounds[1]!.signatures.every((s) => s.contentSha256 === done.rounds[1]!.contentSha256)).toBe(true);
  });

  it('refuses a history the calls would refuse, writing nothing', async () => {
    const { sessionUsers, writeCountersignHistories } = await import('../src/modules/countersign/demo.ts');
    const { ALL_BUTTONS } = await import('../src/lib/permission-rules.ts');
    const u = await sessionUsers(db, ['demo3', 'demo9'] as const);
    const before = await db.countersign.count();
    const draft = {
      title: '越序会签',
      supplierCode: 'S001',
      items: 'x',
      dueDate: day(6),
      fileIds,
      signerIds: [ids.demo8, ids.demo9],
    };
    // demo9 signs before the supplier
    const outOfTurn = writeCountersignHistories(db, [
      {
        issuer: u.demo3,
        client: { ip: IP, userAgent: 'x' },
        draft,
        createdAt: new Date(),
        steps: [
          { kind: 'issue', at: new Date() },
          {
            kind: 'sign',
            user: u.demo9,
            side: { kind: 'internal', buttons: ALL_BUTTONS },
            client: { ip: IP, userAgent: 'x' },
            submit: { round: 1, step: 1, decision: 'AGREE' },
            at: new Date(),
          },
        ],
      },
    ]);
    await expect(outOfTurn).rejects.toThrow('尚未轮到我方会签，当前等待供应商会签');
    // a draft the calls would refuse
    await expect(
      writeCountersignHistories(db, [
        {
          issuer: u.demo3,
          client: { ip: IP, userAgent: 'x' },
          draft: { ...draft, supplierCode: 'NOPE' },
          createdAt: new Date(),
          steps: [],
        },
      ]),
    ).rejects.toThrow('供应商不存在：NOPE');
    expect(await db.countersign.count()).toBe(before);
  });

  it('seeded the demo lists in every state', async () => {
    const seeded = await db.countersign.findMany({
      where: {
        title: {
          in: [
            '冰箱门体钣金件图纸升版会签',
            '洗衣机内桶焊接工艺变更会签',
            '空调贯流风叶新图纸会签',
            '控制主板继电器替代料会签',
            '压缩机支架图纸会签（作废）',
            '冰箱抽屉导轨新图纸会签',
          ],
        },
      },
      orderBy: { id: 'asc' },
      select: { status: true, round: true, step: true },
    });
    expect(seeded.map((c) => `${c.status} ${c.round}/${c.step}`)).toEqual([
      'COMPLETED 2/3',
      'INTERNAL_SIGNING 1/2',
      'SUPPLIER_SIGNING 1/0',
      'RETURNED 1/0',
      'CANCELLED 1/0',
      'DRAFT 0/0',
    ]);
  });
});
