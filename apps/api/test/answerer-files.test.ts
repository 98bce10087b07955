/**
 * An answerer (user type 5) and the archive's files: file/view, file/print and file/download
 * give it exactly the drawing versions of the questions it may take up — assigned to it
 * (分派给我) or waiting in the pool (待分派) — and refuse every other file as if it did not
 * exist, with a REFUSED row that keeps the real reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesApi } from '@esm/contracts';
import { buildTestApp, callApi, createUser, login } from './helpers.ts';
import {
  createFileVersion,
  createMaterial,
  createProductLine,
  createSupplier,
  logsOf,
  samplePdf,
  tempStorage,
  unique,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;

const f = {} as {
  me: { id: number; cookie: string };
  other: { id: number; name: string };
  /** file versions by what the questions say about them */
  mine: number;
  answered: number;
  pooled: number;
  othersQuestion: number;
  closed: number;
  draft: number;
  noQuestion: number;
  /** an older version of the drawing `mine` is about */
  olderOfMine: number;
};

beforeAll(async () => {
  const pdf = await samplePdf(1);
  const line = await createProductLine(db);
  const material = await createMaterial(db, line.code);
  const supplier = await createSupplier(db);
  const asker = await createUser(t.db, { type: 2, supplierCode: supplier.code, prefix: 'sup' });
  const me = await createUser(t.db, { type: 5, prefix: 'wt' });
  const other = await createUser(t.db, { type: 5, prefix: 'wt' });
  f.me = { id: me.id, cookie: await login(t.app, me.account) };
  f.other = { id: other.id, name: '测试用户5' };
  const type = await db.problemType.create({ data: { name: `图纸问题${unique()}`, role: 'SQE', responseDays: 3 } });
  const file = async (standardCode?: string) =>
    (await createFileVersion(db, files.storage, { materialCode: material.code, type: 'pdf', bytes: pdf, standardCode }))
      .id;
  const standardCode = `Q/ESM-${unique()}`;
  f.olderOfMine = await file(standardCode);
  f.mine = await file(standardCode);
  [f.answered, f.pooled, f.othersQuestion, f.closed, f.draft, f.noQuestion] = [
    await file(),
    await file(),
    await file(),
    await file(),
    await file(),
    await file(),
  ];
  const question = async (fileId: number, status: string, assigneeId: number | null) => {
    const v = await db.standardFile.findUniqueOrThrow({ where: { id: fileId } });
    await db.documentIssue.create({
      data: {
        number: `WT${unique()}`.slice(0, 20),
        supplierCode: supplier.code,
        supplierName: supplier.name,
        fileId,
        standardCode: v.standardCode,
        version: v.version,
        materialCode: material.code,
        productLineCode: line.code,
        problemTypeId: type.id,
        title: '孔位公差',
        description: '请确认孔位公差',
        status,
        askedById: asker.id,
        askedByAccount: asker.account,
        askedByName: '测试用户2',
        assigneeId,
        assigneeName: assigneeId === null ? null : assigneeId === me.id ? '测试用户5' : f.other.name,
        submittedAt: status === 'DRAFT' ? null : new Date(),
      },
    });
  };
  await question(f.mine, 'PROCESSING', me.id);
  await question(f.answered, 'ANSWERED', me.id);
  await question(f.pooled, 'PENDING', null);
  await question(f.othersQuestion, 'PROCESSING', other.id);
  await question(f.closed, 'CLOSED', me.id);
  await question(f.draft, 'DRAFT', null);
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

const act = (action: 'view' | 'print' | 'download', id: number) =>
  callApi(t.app, filesApi[action], { id }, f.me.cookie);

describe('an answerer opens the drawings of its questions', () => {
  it.each([
    ['assigned to it (处理中)', 'mine'],
    ['assigned to it and answered (已回复)', 'answered'],
    ['waiting in the pool (待分派)', 'pooled'],
  ] as const)('a version a question %s is about: view, print and download are served', async (_, which) => {
    for (const action of ['view', 'print', 'download'] as const) {
      const res = await act(action, f[which]);
      expect(res.statusCode, `${action}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
    }
  });
});

describe('an answerer is refused every other file, as if it did not exist', () => {
  it.each([
    ['no question is about', 'noQuestion'],
    ['only another answerer’s question is about', 'othersQuestion'],
    ['only its closed question is about', 'closed'],
    ['only a supplier’s draft is about', 'draft'],
    ['is another version of the drawing its question is about', 'olderOfMine'],
  ] as const)(
    'a file %s: 404 文件不存在 on view, print and download, each a REFUSED row with the real reason',
    async (_, which) => {
      const before = (await logsOf(db, f.me.id)).length;
      for (const action of ['view', 'print', 'download'] as const) {
        const res = await act(action, f[which]);
        expect(res.statusCode, action).toBe(404);
        expect(res.json()).toMatchObject({ success: false, message: '文件不存在' });
      }
      const rows = (await logsOf(db, f.me.id)).slice(before);
      expect(rows.map((r) => `${r.action}:${r.outcome}:${r.fileId}`)).toEqual(
        ['VIEW', 'PRINT', 'DOWNLOAD'].map((a) => `${a}:REFUSED:${f[which]}`),
      );
      for (const r of rows) expect(r.reason).toBe('该图纸版本不是分派给本人或待分派的问题所涉及的图纸，无权查看');
    },
  );

  it('says the same for a file that does not exist', async () => {
    const res = await act('view', 2_000_000_000);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('文件不存在');
  });
});
