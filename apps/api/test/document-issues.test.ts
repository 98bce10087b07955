/**
 * Questions on drawings through the real calls on a real Postgres: routing on submit
 * (one answerer, none, several), the state machine with each refusal (and real concurrent moves),
 * drafts-only edits and batch deletes, attachment limits, suppliers kept to their own questions
 * and attachments on every call, due dates in working days, problem types in use never deleted,
 * and the role table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ATTACHMENT_MAX_BYTES,
  ISSUE_SORT_FIELDS,
  addWorkingDays,
  documentIssuesApi,
  logsApi,
  problemTypesApi,
  type EndpointDef,
  type HandlingRole,
} from '@esm/contracts';
import { Prisma } from '../src/generated/prisma/client.ts';
import { listPage } from '../src/lib/list.ts';
import { issueListParts } from '../src/modules/documentIssues/query.ts';
import { api, buildTestApp, createUser, hasChinese, holdInserts, login, apiCaller } from './helpers.ts';
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
  samplePng,
  tempStorage,
  unique,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
const pdf = await samplePdf(1);
const png = await samplePng(40, 30);

const call = apiCaller(t.app);
async function upload(side: 'supplier' | 'haier', cookie: string, filename: string, bytes: Uint8Array) {
  const { payload, headers } = multipart([{ name: 'file', file: { filename, bytes } }]);
  return t.app.inject({
    method: 'POST',
    url: api((side === 'supplier' ? documentIssuesApi.supplierUpload : documentIssuesApi.upload).path),
    payload,
    headers: { ...headers, cookie },
  });
}

// the fixture: product line `pl` (one answerer for PRODUCT_LINE, two for SQE), `pl2` (nobody)
const f = {} as {
  pl: string;
  pl2: string;
  file: number;
  file2: number;
  hidden: number;
  typeLine: number;
  typeSqe: number;
  typeOff: number;
  supA: { cookie: string; code: string; account: string };
  supB: { cookie: string; code: string; account: string };
  h1: { id: number; cookie: string; account: string };
  h2: { id: number; cookie: string };
  admin7: string;
};

beforeAll(async () => {
  f.pl = (await createProductLine(db)).code;
  f.pl2 = (await createProductLine(db)).code;
  const m = await createMaterial(db, f.pl);
  const m2 = await createMaterial(db, f.pl2);
  const mHidden = await createMaterial(db, f.pl);
  const [a, b] = [await createSupplier(db, '甲'), await createSupplier(db, '乙')];
  for (const s of [a, b]) {
    await linkSupplier(db, s.code, m.code);
    await linkSupplier(db, s.code, m2.code);
    await createGrant(db, s.code, m.code);
    await createGrant(db, s.code, m2.code);
  }
  await linkSupplier(db, b.code, mHidden.code);
  await createGrant(db, b.code, mHidden.code);
  f.file = (await createFileVersion(db, files.storage, { materialCode: m.code, type: 'pdf', bytes: pdf })).id;
  f.file2 = (await createFileVersion(db, files.storage, { materialCode: m2.code, type: 'pdf', bytes: pdf })).id;
  f.hidden = (await createFileVersion(db, files.storage, { materialCode: mHidden.code, type: 'pdf', bytes: pdf })).id;
  const ua = await createSupplierUser(t.db, a.code);
  const ub = await createSupplierUser(t.db, b.code);
  await acceptCurrentAgreement(db, ua.id, a.code);
  f.supA = { cookie: await login(t.app, ua.account), code: a.code, account: ua.account };
  f.supB = { cookie: await login(t.app, ub.account), code: b.code, account: ub.account };
  const h1 = await createUser(t.db, { type: 5, prefix: 'wt' });
  const h2 = await createUser(t.db, { type: 5, prefix: 'wt' });
  f.h1 = { id: h1.id, cookie: await login(t.app, h1.account), account: h1.account };
  f.h2 = { id: h2.id, cookie: await login(t.app, h2.account) };
  f.admin7 = await login(t.app, 'demo7');
  const type = async (name: string, role: HandlingRole, enabled = true) =>
    (
      await call(problemTypesApi.create, { name: `${name}${unique()}`, role, responseDays: 3, enabled }, f.admin7)
    ).json().data.id as number;
  f.typeLine = await type('产品线问题', 'PRODUCT_LINE');
  f.typeSqe = await type('SQE问题', 'SQE');
  f.typeOff = await type('停用类型', 'SQE', false);
  for (const [productLineCode, role, userId] of [
    [f.pl, 'PRODUCT_LINE', h1.id],
    [f.pl, 'SQE', h1.id],
    [f.pl, 'SQE', h2.id],
  ] as const) {
    expect((await call(problemTypesApi.addRole, { productLineCode, role, userId }, f.admin7)).statusCode).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

const draft = (over: Record<string, unknown> = {}) => ({
  fileId: f.file,
  problemTypeId: f.typeLine,
  title: '孔位公差',
  description: '请确认孔位公差',
  purchaser: '采购员甲',
  ...over,
});
async function ask(over: Record<string, unknown> = {}, who = f.supA.cookie): Promise<number> {
  const res = await call(documentIssuesApi.add, draft(over), who);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.id;
}
async function submitted(over: Record<string, unknown> = {}) {
  const id = await ask(over);
  const res = await call(documentIssuesApi.submit, { id }, f.supA.cookie);
  expect(res.statusCode, res.body).toBe(200);
  return { id, data: res.json().data, message: res.json().message as string };
}

describe('routing on submit', () => {
  it('one answerer for the product line × role: assigned to them, 处理中, due in working days, thread SUBMIT + ROUTE', async () => {
    const { data, message } = await submitted();
    expect(data.status).toBe('PROCESSING');
    expect(data.assigneeId).toBe(f.h1.id);
    expect(message).toMatch(/已分派给/);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(data.dueDate).toBe(addWorkingDays(today, 3));
    expect(data.messages.map((x: { action: string }) => x.action)).toEqual(['CREATE', 'SUBMIT', 'ROUTE']);
  });
  it('several answerers: waits in the pool (待分派)', async () => {
    const { data, message } = await submitted({ problemTypeId: f.typeSqe });
    expect(data.status).toBe('PENDING');
    expect(data.assigneeId).toBeNull();
    expect(message).toBe('已提交，有多位处理人，等待分派');
  });
  it('nobody in the role table for the product line: waits in the pool', async () => {
    const { data } = await submitted({ fileId: f.file2 });
    expect(data.status).toBe('PENDING');
    const pool = (await call(documentIssuesApi.page, { scope: 'POOL', results: 100 }, f.h1.cookie)).json();
    expect(pool.data.map((r: { id: number }) => r.id)).toContain(data.id);
  });
  it('a disabled answerer does not count', async () => {
    const off = await createUser(t.db, { type: 5, prefix: 'wtoff' });
    await call(problemTypesApi.addRole, { productLineCode: f.pl2, role: 'PRODUCT_LINE', userId: off.id }, f.admin7);
    await db.user.update({ where: { id: off.id }, data: { enabled: false } });
    const { data } = await submitted({ fileId: f.file2 });
    expect(data.status).toBe('PENDING');
  });
});

describe('working days', () => {
  it('skips Saturday and Sunday (no holiday calendar)', () => {
    expect(addWorkingDays('2026-11-20', 1)).toBe('2026-11-23'); // Fri → Mon
    expect(addWorkingDays('2026-11-21', 1)).toBe('2026-11-23'); // Sat → Mon
    expect(addWorkingDays('2026-11-18', 5)).toBe('2026-11-25');
  });
});

describe('the state machine', () => {
  it('walks 处理中 → 已回复 → (reopen) 处理中 → 已回复 → 已关闭 → (reopen) 处理中, each step in the thread', async () => {
    const { id } = await submitted();
    let r = await call(documentIssuesApi.reply, { id, text: '按图纸执行' }, f.h1.cookie);
    expect(r.json().data.status).toBe('ANSWERED');
    r = await call(documentIssuesApi.reopen, { id, text: '还有一个问题' }, f.supA.cookie);
    expect(r.json().data.status).toBe('PROCESSING');
    expect(r.json().data.assigneeId).toBe(f.h1.id);
    await call(documentIssuesApi.reply, { id, text: '补充回复' }, f.h1.cookie);
    r = await call(documentIssuesApi.close, { id }, f.supA.cookie);
    expect(r.json().data.status).toBe('CLOSED');
    r = await call(documentIssuesApi.reopen, { id, text: '关闭后追问' }, f.supA.cookie);
    expect(r.json().data.status).toBe('PROCESSING');
    expect(r.json().data.messages.map((x: { action: string }) => x.action)).toEqual([
      'CREATE',
      'SUBMIT',
      'ROUTE',
      'REPLY',
      'REOPEN',
      'REPLY',
      'CLOSE',
      'REOPEN',
    ]);
    expect(r.json().data.messages[4].text).toBe('还有一个问题');
  });

  it('refuses each move from a state it does not leave, with a Chinese 409', async () => {
    const { id } = await submitted();
    const cases: [EndpointDef, object, string][] = [
      [documentIssuesApi.submit, { id }, f.supA.cookie],
      [documentIssuesApi.close, { id }, f.supA.cookie],
      [documentIssuesApi.reopen, { id, text: '追问' }, f.supA.cookie],
      [documentIssuesApi.update, { id, ...draft() }, f.supA.cookie],
      [documentIssuesApi.remove, { id }, f.supA.cookie],
    ];
    for (const [endpoint, body, cookie] of cases) {
      const res = await call(endpoint, body, cookie);
      expect(res.statusCode, endpoint.path).toBe(409);
      expect(hasChinese(res.json().message), endpoint.path).toBe(true);
    }
    expect((await call(documentIssuesApi.submit, { id }, f.supA.cookie)).json().message).toBe(
      '该问题已提交，不能重复提交',
    );
    await call(documentIssuesApi.reply, { id, text: '答复' }, f.h1.cookie);
    const again = await call(documentIssuesApi.reply, { id, text: '答复' }, f.h1.cookie);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('该问题已回复，请勿重复回复');
    expect(
      (await call(documentIssuesApi.assign, { id, userId: f.h2.id, reason: '改派' }, f.h1.cookie)).statusCode,
    ).toBe(409);
  });

  it('only the assignee replies; reassigning needs a reason; take from the pool', async () => {
    const { id } = await submitted();
    const other = await call(documentIssuesApi.reply, { id, text: '我来答' }, f.h2.cookie);
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toMatch(/只有处理人可以回复/);
    const noReason = await call(documentIssuesApi.assign, { id, userId: f.h2.id }, f.h1.cookie);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors[0]).toEqual({ field: 'reason', message: '改派请填写原因' });
    const re = await call(documentIssuesApi.assign, { id, userId: f.h2.id, reason: '休假' }, f.h1.cookie);
    expect(re.json().data.assigneeId).toBe(f.h2.id);
    expect(re.json().data.messages.at(-1)!.text).toMatch(/原因：休假/);
    const notAnswerer = await call(
      documentIssuesApi.assign,
      { id, userId: (await db.user.findUniqueOrThrow({ where: { account: 'demo7' } })).id, reason: 'x' },
      f.h2.cookie,
    );
    expect(notAnswerer.statusCode).toBe(400);

    const pool = (await submitted({ problemTypeId: f.typeSqe })).id;
    const take = await call(documentIssuesApi.assign, { id: pool, userId: f.h2.id }, f.h2.cookie);
    expect(take.json().message).toBe('已领取');
    expect(take.json().data.status).toBe('PROCESSING');
  });

  it('concurrent: a double submit moves once; two answerers taking the same question — one wins', async () => {
    const id = await ask();
    const both = await Promise.all([1, 2].map(() => call(documentIssuesApi.submit, { id }, f.supA.cookie)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await db.documentIssueMessage.count({ where: { issueId: id, action: 'SUBMIT' } })).toBe(1);

    const pool = (await submitted({ problemTypeId: f.typeSqe })).id;
    const takes = await Promise.all(
      [f.h1, f.h2].map((h) => call(documentIssuesApi.assign, { id: pool, userId: h.id }, h.cookie)),
    );
    expect(takes.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // the loser's take read after the winner's commit (as it may under load): still a stale take, 409
    const loser = takes[0]!.statusCode === 409 ? f.h1 : f.h2;
    const late = await call(documentIssuesApi.assign, { id: pool, userId: loser.id }, loser.cookie);
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json().message).toMatch(/已由 .+ 领取，请刷新后重试/);
    expect(await db.documentIssueMessage.count({ where: { issueId: pool, action: 'ASSIGN' } })).toBe(1);

    const replies = await Promise.all(
      [1, 2].map(() => call(documentIssuesApi.reply, { id, text: '同时回复' }, f.h1.cookie)),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await db.documentIssueMessage.count({ where: { issueId: id, action: 'REPLY' } })).toBe(1);
  });
});

describe('a move sent while another action on the question is still writing', () => {
  /** Sends `first`, holds it at its thread row, sends `second` beside it, then lets both finish. */
  async function overlapping(first: () => ReturnType<typeof call>, second: () => ReturnType<typeof call>) {
    const held = await holdInserts('document_issue_message');
    let a: ReturnType<typeof call>;
    let b: typeof a;
    try {
      a = first();
      const writing = await held.writer();
      b = second();
      await held.waitBehind(writing);
    } finally {
      await held.release();
    }
    return [await a!, await b!] as const;
  }

  it('a submit waits for an edit in flight and routes by the edited problem type', async () => {
    const id = await ask(); // typeLine: one answerer, routed at once
    const [edit, submit] = await overlapping(
      () => call(documentIssuesApi.update, { id, ...draft({ problemTypeId: f.typeSqe }) }, f.supA.cookie),
      () => call(documentIssuesApi.submit, { id }, f.supA.cookie),
    );
    expect(edit.statusCode, edit.body).toBe(200);
    expect(submit.statusCode, submit.body).toBe(200);
    // typeSqe has two answerers: the question waits in the pool
    const q = await db.documentIssue.findUniqueOrThrow({ where: { id } });
    expect({ status: q.status, type: q.problemTypeId, assignee: q.assigneeId }).toEqual({
      status: 'PENDING',
      type: f.typeSqe,
      assignee: null,
    });
    expect(
      (await db.documentIssueMessage.findMany({ where: { issueId: id }, orderBy: { id: 'asc' } })).map((m) => m.action),
    ).toEqual(['CREATE', 'UPDATE', 'SUBMIT']);
  });

  it('a reopen racing a close reads the closed question: the thread chains ANSWERED → CLOSED → PROCESSING', async () => {
    const { id } = await submitted();
    expect((await call(documentIssuesApi.reply, { id, text: '按图纸执行' }, f.h1.cookie)).statusCode).toBe(200);
    const [close, reopen] = await overlapping(
      () => call(documentIssuesApi.close, { id }, f.supA.cookie),
      () => call(documentIssuesApi.reopen, { id, text: '还有一个问题' }, f.supA.cookie),
    );
    expect(close.statusCode, close.body).toBe(200);
    expect(reopen.statusCode, reopen.body).toBe(200);
    const thread = await db.documentIssueMessage.findMany({
      where: { issueId: id, action: { in: ['CLOSE', 'REOPEN'] } },
      orderBy: { id: 'asc' },
    });
    expect(thread.map((m) => [m.action, m.fromStatus, m.toStatus])).toEqual([
      ['CLOSE', 'ANSWERED', 'CLOSED'],
      ['REOPEN', 'CLOSED', 'PROCESSING'],
    ]);
  });
});

describe('drafts', () => {
  it('edits and deletes drafts only; a batch delete is all or nothing', async () => {
    const id = await ask();
    const edit = await call(documentIssuesApi.update, { id, ...draft({ title: '新标题' }) }, f.supA.cookie);
    expect(edit.json().data.title).toBe('新标题');
    const [d1, d2] = [await ask(), await ask()];
    const { id: sent } = await submitted();
    const mixed = await call(documentIssuesApi.removeMany, { ids: [d1, sent] }, f.supA.cookie);
    expect(mixed.statusCode).toBe(409);
    expect(mixed.json().message).toMatch(/只有草稿可以删除/);
    expect(await db.documentIssue.count({ where: { id: d1 } })).toBe(1);
    const ok = await call(documentIssuesApi.removeMany, { ids: [d1, d2] }, f.supA.cookie);
    expect(ok.json().data.deleted).toBe(2);
    expect((await call(documentIssuesApi.remove, { id }, f.supA.cookie)).statusCode).toBe(200);
  });

  it('refuses a drawing the supplier may not see, a disabled type and empty fields (400 per field)', async () => {
    const hidden = await call(documentIssuesApi.add, draft({ fileId: f.hidden }), f.supA.cookie);
    expect(hidden.statusCode).toBe(400);
    expect(hidden.json().errors[0]).toEqual({ field: 'fileId', message: '图纸不存在，请重新选择' });
    const off = await call(documentIssuesApi.add, draft({ problemTypeId: f.typeOff }), f.supA.cookie);
    expect(off.json().errors[0].field).toBe('problemTypeId');
    expect(off.json().errors[0].message).toMatch(/已停用/);
    const empty = await call(documentIssuesApi.add, draft({ title: ' ' }), f.supA.cookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe('请输入问题标题');
  });
});

describe('attachments', () => {
  it('stores an accepted file in the file store (not the database) and binds it to the question', async () => {
    const up = await upload('supplier', f.supA.cookie, '现场照片.png', png);
    expect(up.statusCode, up.body).toBe(200);
    const att = up.json().data;
    const row = await db.documentIssueAttachment.findUniqueOrThrow({ where: { id: att.id } });
    expect(await files.storage.exists(row.sha256)).toBe(true);
    const id = await ask({ attachmentIds: [att.id] });
    const list = await call(documentIssuesApi.supplierFiles, { id }, f.supA.cookie);
    expect(list.json().data.map((a: { fileName: string }) => a.fileName)).toEqual(['现场照片.png']);
    const dl = await call(documentIssuesApi.supplierDownload, { id: att.id }, f.supA.cookie);
    expect(dl.statusCode).toBe(200);
    // the caller's stamped copy (see 'every download is stamped and logged'), still a PNG
    expect(dl.rawPayload.subarray(0, 8).equals(Buffer.from(png).subarray(0, 8))).toBe(true);
    // an Office file is recognised by its signature
    const docx = await upload(
      'supplier',
      f.supA.cookie,
      '说明.docx',
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]),
    );
    expect(docx.statusCode).toBe(200);
  });

  it('refuses what is too large, an unsupported type, content that is not its extension, and an empty file', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(ATTACHMENT_MAX_BYTES)]);
    const tooBig = await upload('supplier', f.supA.cookie, 'big.pdf', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe('文件过大：上限为 20 MB');
    const exe = await upload('supplier', f.supA.cookie, 'tool.exe', Buffer.from('MZ\x90\x00'));
    expect(exe.statusCode).toBe(415);
    expect(exe.json().message).toMatch(/附件类型不支持，仅支持 PDF/);
    const fake = await upload('supplier', f.supA.cookie, 'drawing.pdf', png);
    expect(fake.statusCode).toBe(415);
    expect(fake.json().message).toMatch(/文件内容与扩展名 \.pdf 不符/);
    const empty = await upload('supplier', f.supA.cookie, 'empty.pdf', Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    // what could not be stamped for the one who downloads it: refused at upload, the huge image from its header
    const damaged = await upload(
      'supplier',
      f.supA.cookie,
      'damaged.pdf',
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500)]),
    );
    expect(damaged.json()).toMatchObject({
      errors: [{ field: 'file', message: 'PDF 文件已损坏，无法添加水印，未上传；请检查文件后重新上传' }],
    });
    const huge = Buffer.from(png);
    huge.writeUInt32BE(16_000, 16);
    huge.writeUInt32BE(16_000, 20);
    const bomb = await upload('supplier', f.supA.cookie, 'huge.png', huge);
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().message).toMatch(/^图片尺寸过大（16000×16000）/);
    const count = await db.documentIssueAttachment.count({
      where: { fileName: { in: ['big.pdf', 'tool.exe', 'drawing.pdf', 'empty.pdf', 'damaged.pdf', 'huge.png'] } },
    });
    expect(count).toBe(0);
  });

  it('every download is stamped and logged like an archive file: OK rows for the allowed, REFUSED rows alike for "not yours" and "no such id"', async () => {
    const { id } = await submitted();
    const number = (await db.documentIssue.findUniqueOrThrow({ where: { id } })).number;
    const big = await samplePng(400, 300); // room for the watermark's tiles (a 40×30 image has none)
    const answer = (await upload('haier', f.h1.cookie, '标注图.png', big)).json().data;
    const sheet = (
      await upload(
        'haier',
        f.h1.cookie,
        '说明.docx',
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]),
      )
    ).json().data;
    expect(
      (await call(documentIssuesApi.reply, { id, text: '见附件', attachmentIds: [answer.id, sheet.id] }, f.h1.cookie))
        .statusCode,
    ).toBe(200);
    const rowsOf = (fileName: string) =>
      db.accessLog.findMany({
        where: { action: 'DOWNLOAD', fileName, standardCode: number },
        orderBy: { id: 'asc' },
        select: { outcome: true, userAccount: true, supplierCode: true, fileId: true, version: true, reason: true },
      });

    // a PNG: a stamped copy (not the stored bytes), named with who and when
    const png1 = await call(documentIssuesApi.supplierDownload, { id: answer.id }, f.supA.cookie);
    expect(png1.statusCode).toBe(200);
    expect(png1.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(png1.rawPayload, Buffer.from(big))).not.toBe(0);
    expect(decodeURIComponent(String(png1.headers['content-disposition']))).toMatch(
      /^attachment; .*filename\*=UTF-8''标注图_问题附件_.+_\d{12}\.png$/,
    );
    // an Office file cannot be stamped: the stored bytes, the stamp in its name
    const doc1 = await call(documentIssuesApi.download, { id: sheet.id }, f.h1.cookie);
    expect(doc1.statusCode).toBe(200);
    expect(doc1.rawPayload.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(decodeURIComponent(String(doc1.headers['content-disposition']))).toMatch(
      new RegExp(`说明_问题附件_${f.h1.account}_\\d{12}\\.docx$`),
    );

    expect(await rowsOf('标注图.png')).toEqual([
      {
        outcome: 'SENT',
        userAccount: f.supA.account,
        supplierCode: f.supA.code,
        fileId: null,
        version: '问题附件',
        reason: null,
      },
    ]);
    expect((await rowsOf('说明.docx')).map((r) => [r.outcome, r.userAccount, r.supplierCode])).toEqual([
      ['SENT', f.h1.account, null],
    ]);

    // another supplier: 404 as for an id that does not exist, and a REFUSED row for each
    const before = await db.accessLog.count({
      where: { action: 'DOWNLOAD', outcome: 'REFUSED', userAccount: f.supB.account },
    });
    const theirs = await call(documentIssuesApi.supplierDownload, { id: answer.id }, f.supB.cookie);
    const none = await call(documentIssuesApi.supplierDownload, { id: 2_000_000_000 }, f.supB.cookie);
    expect([theirs.statusCode, none.statusCode]).toEqual([404, 404]);
    expect(theirs.json().message).toBe(none.json().message);
    expect(
      await db.accessLog.count({ where: { action: 'DOWNLOAD', outcome: 'REFUSED', userAccount: f.supB.account } }),
    ).toBe(before + 2);
    expect(await rowsOf('标注图.png')).toHaveLength(1); // nothing about A's attachment in B's refusal
    // the download log page lists it for the auditors, found by the question's number
    const page = await call(logsApi.DOWNLOAD, { results: 10, standardCode: number }, await login(t.app, 'demo3'));
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data.map((r) => [r.fileName, r.version, r.userAccount])).toEqual(
      expect.arrayContaining([
        ['标注图.png', '问题附件', f.supA.account],
        ['说明.docx', '问题附件', f.h1.account],
      ]),
    );
  });

  it('an answerer replies with an attachment the supplier then downloads', async () => {
    const { id } = await submitted();
    const up = (await upload('haier', f.h1.cookie, '答复.pdf', pdf)).json().data;
    const r = await call(documentIssuesApi.reply, { id, text: '见附件', attachmentIds: [up.id] }, f.h1.cookie);
    expect(r.json().data.messages.at(-1)!.attachments[0]!.fileName).toBe('答复.pdf');
    expect((await call(documentIssuesApi.supplierDownload, { id: up.id }, f.supA.cookie)).statusCode).toBe(200);
    expect((await call(documentIssuesApi.supplierDownload, { id: up.id }, f.supB.cookie)).statusCode).toBe(404);
  });
});

describe('supplier isolation', () => {
  it('another supplier gets 404 on every call about a question that is not its own, and never sees it listed', async () => {
    const up = (await upload('supplier', f.supA.cookie, 'a.pdf', pdf)).json().data;
    const draftId = await ask({ attachmentIds: [up.id] });
    const { id } = await submitted();
    await call(documentIssuesApi.reply, { id, text: '答复' }, f.h1.cookie);
    const calls: [EndpointDef, object][] = [
      [documentIssuesApi.supplierFind, { id }],
      [documentIssuesApi.update, { id: draftId, ...draft() }],
      [documentIssuesApi.remove, { id: draftId }],
      [documentIssuesApi.removeMany, { ids: [draftId] }],
      [documentIssuesApi.submit, { id: draftId }],
      [documentIssuesApi.close, { id }],
      [documentIssuesApi.reopen, { id, text: '追问' }],
      [documentIssuesApi.supplierFiles, { id: draftId }],
      [documentIssuesApi.supplierDownload, { id: up.id }],
    ];
    for (const [endpoint, body] of calls) {
      const res = await call(endpoint, body, f.supB.cookie);
      expect(res.statusCode, endpoint.path).toBe(404);
      expect(hasChinese(res.json().message), endpoint.path).toBe(true);
    }
    const list = (await call(documentIssuesApi.supplierPage, { results: 100 }, f.supB.cookie)).json();
    expect(list.data.every((r: { supplierCode: string }) => r.supplierCode === f.supB.code)).toBe(true);
    // B cannot bind A's upload to a question of its own
    const steal = await call(documentIssuesApi.add, draft({ attachmentIds: [up.id] }), f.supB.cookie);
    expect(steal.statusCode).toBe(400);
    expect(steal.json().message).toBe('附件不存在或已被使用，请重新上传');
    // answerers do not see drafts
    expect((await call(documentIssuesApi.find, { id: draftId }, f.h1.cookie)).statusCode).toBe(404);
    expect((await call(documentIssuesApi.download, { id: up.id }, f.h1.cookie)).statusCode).toBe(404);
    // the purchaser picker is scoped too
    expect(
      (
        await call(
          documentIssuesApi.purchasers,
          { materialCode: (await db.standardFile.findUniqueOrThrow({ where: { id: f.hidden } })).materialCode },
          f.supA.cookie,
        )
      ).statusCode,
    ).toBe(404);
    const drawings = (await call(documentIssuesApi.drawings, {}, f.supA.cookie))
      .json()
      .data.map((d: { fileId: number }) => d.fileId);
    expect(drawings).toContain(f.file);
    expect(drawings).not.toContain(f.hidden);
  });
});

describe('problem types and the role table', () => {
  it('a type in use is not deleted (409 says to disable it); an unused one is', async () => {
    const used = await call(problemTypesApi.remove, { id: f.typeLine }, f.admin7);
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toMatch(/个问题使用，不能删除；如不再使用请停用/);
    const fresh = (
      await call(problemTypesApi.create, { name: `临时${unique()}`, role: 'SQE', responseDays: 2 }, f.admin7)
    ).json().data.id;
    expect((await call(problemTypesApi.remove, { id: fresh }, f.admin7)).statusCode).toBe(200);
    expect((await call(problemTypesApi.remove, { id: fresh }, f.admin7)).statusCode).toBe(404);
  });
  it('refuses a duplicate name, a bad response time and a duplicate role row; selectUser offers answerers only', async () => {
    const name = (await db.problemType.findUniqueOrThrow({ where: { id: f.typeLine } })).name;
    const dup = await call(problemTypesApi.create, { name, role: 'SQE', responseDays: 2 }, f.admin7);
    expect(dup.statusCode).toBe(400);
    expect(dup.json().errors[0].field).toBe('name');
    const days = await call(problemTypesApi.create, { name: `x${unique()}`, role: 'SQE', responseDays: 0 }, f.admin7);
    expect(days.json().errors[0]).toEqual({ field: 'responseDays', message: '响应时间至少 1 个工作日' });
    const again = await call(
      problemTypesApi.addRole,
      { productLineCode: f.pl, role: 'SQE', userId: f.h1.id },
      f.admin7,
    );
    expect(again.statusCode).toBe(409);
    const users = (await call(problemTypesApi.selectUser, {}, f.admin7)).json().data;
    expect(users.every((u: { type: number }) => u.type === 5)).toBe(true);
    // LIKE's wildcards are taken literally, as in every other search
    for (const keyword of ['%', 'd_mo', 'd%5', 'demo_'])
      expect((await call(problemTypesApi.selectUser, { keyword }, f.admin7)).json().data, keyword).toEqual([]);
    expect(
      (await call(problemTypesApi.selectUser, { keyword: 'demo5' }, f.admin7))
        .json()
        .data.map((u: { account: string }) => u.account),
    ).toEqual(['demo5']);
    const supplierUser = await db.user.findUniqueOrThrow({ where: { account: 'demo2' } });
    const bad = await call(
      problemTypesApi.addRole,
      { productLineCode: f.pl, role: 'SQE', userId: supplierUser.id },
      f.admin7,
    );
    expect(bad.statusCode).toBe(400);
    // the supplier form offers enabled types only
    const options = (await call(problemTypesApi.supplierList, {}, f.supA.cookie))
      .json()
      .data.map((o: { id: number }) => o.id);
    expect(options).toContain(f.typeLine);
    expect(options).not.toContain(f.typeOff);
  });
  it('a role row added routes the next question, and deleting it sends the next one to the pool', async () => {
    const row = (
      await call(problemTypesApi.addRole, { productLineCode: f.pl2, role: 'SQE', userId: f.h2.id }, f.admin7)
    ).json().data;
    const routed = await submitted({ fileId: f.file2, problemTypeId: f.typeSqe });
    expect(routed.data.assigneeId).toBe(f.h2.id);
    await call(problemTypesApi.deleteRole, { id: row.id }, f.admin7);
    const pooled = await submitted({ fileId: f.file2, problemTypeId: f.typeSqe });
    expect(pooled.data.status).toBe('PENDING');
  });
});

describe('the lookups the lists join', () => {
  it('a question can only point at an existing file, material and product line (the LEFT JOINs of the lists rely on it)', async () => {
    const id = await ask();
    const row = await db.documentIssue.findUniqueOrThrow({ where: { id } });
    for (const change of [
      { file_id: -1 },
      { material_code: `无此物料${unique()}` },
      { product_line_code: `无此产线${unique()}` },
    ]) {
      const [col, value] = Object.entries(change)[0]!;
      await expect(
        db.$executeRawUnsafe(`UPDATE document_issue SET ${col} = $1 WHERE id = $2`, value, id),
      ).rejects.toThrow(/foreign key/i);
    }
    // and the lists still find it, with its lookups
    const page = (await call(documentIssuesApi.supplierPage, { page: 1, results: 50 }, f.supA.cookie)).json();
    const listed = page.data.find((r: { id: number }) => r.id === id);
    expect(listed).toMatchObject({
      fileId: row.fileId,
      materialCode: row.materialCode,
      productLineCode: row.productLineCode,
    });
    expect(
      listed!.fileTitle && listed!.materialName && listed!.productLineName && listed!.problemTypeName,
    ).toBeTruthy();
  });
});

describe('the lists look their rows up after choosing the page (ListParts.lookups)', () => {
  it('gives the same pages as joining every lookup first: both readers, every sort, a filter, later pages', async () => {
    for (let i = 0; i < 12; i++) await (i % 3 ? submitted({ title: `排序${i}` }) : ask({ title: `排序${i}` }));
    const readers = [{ supplierCode: f.supA.code }, { handlerId: f.h1.id }] as const;
    const sorts = [
      {},
      ...ISSUE_SORT_FIELDS.flatMap((sortField) =>
        (['ascend', 'descend'] as const).map((sortOrder) => ({ sortField, sortOrder })),
      ),
    ];
    let compared = 0;
    for (const reader of readers) {
      for (const sort of sorts) {
        for (const extra of [{ page: 1 }, { page: 2 }, { page: 1, keyword: '排序' }, { page: 50 }]) {
          const q = { results: 5, ...sort, ...extra };
          const parts = issueListParts(reader, q, new Date());
          const joinedFirst = { ...parts, from: Prisma.sql`${parts.from} ${parts.lookups!.joins}`, lookups: undefined };
          const [a, b] = [await listPage(db, q, parts), await listPage(db, q, joinedFirst)];
          expect(a, JSON.stringify({ reader, q })).toEqual(b);
          compared += a.rows.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(100); // pages with rows, not only empty ones
  });
});
