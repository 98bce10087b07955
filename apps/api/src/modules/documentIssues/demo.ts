/**
 * Demo questions on drawings, seeded after the archive and the notices: problem types
 * (one disabled), the SQE / product-line role table, and questions of S001 (demo2) and S002
 * (demo4) in every state — dated relative to the seed time, so the overdue ones stay overdue.
 * A second answerer, 赵丽 (wt-zhaoli, type 5, no usable password), makes 洗衣机 × SQE a role with
 * two people: such questions wait in the pool. 空调 × SQE has nobody (the e2e journey adds demo5).
 *
 *  S001 草稿    HR-BX-D003 B    尺寸公差
 *  S001 待分派  HR-XYJ-D101 A   检验标准 (洗衣机 SQE: two people), overdue
 *  S001 处理中  HR-BX-D001 C    尺寸公差 → demo5, due ahead
 *  S001 已回复  HR-KT-D202 B    版本差异 → demo5; the answer links BG-…-0004 (B→C) and a PDF
 *  S001 已关闭  Q/HR-BX-S010 V1.0 技术要求 → demo5
 *  S002 处理中  HR-BX-D006 A    尺寸公差 → demo5, overdue
 *  S002 已回复  HR-XYJ-D105 B   技术要求 → demo5
 */
import { Readable } from 'node:stream';
import { ATTACHMENT_MAX_BYTES, addWorkingDays, type IssueAction, type IssueStatus } from '@esm/contracts';
import { cstDay } from '../../lib/dates.ts';
import type { Storage } from '../../lib/storage.ts';
import type { Db } from '../../db/database.ts';
import { insertRows, insertRowsReturningIds } from '../../db/demo-batch.ts';

const DAY = 86_400_000;

/** The demo reply's attachment: a one-page PDF with a line of text (small, drawn by hand). */
const ATTACHMENT_PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj',
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj',
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj',
    '4 0 obj<</Length 58>>stream\nBT /F1 18 Tf 72 760 Td (Fan balance check: grade G2.5) Tj ET\nendstream endobj',
    '5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj',
    'trailer<</Root 1 0 R>>',
    '%%EOF',
  ].join('\n'),
  'latin1',
);

const PROBLEM_TYPES = [
  { name: '尺寸公差疑问', role: 'PRODUCT_LINE', responseDays: 3, enabled: true },
  { name: '技术要求与材料', role: 'PRODUCT_LINE', responseDays: 5, enabled: true },
  { name: '检验标准疑问', role: 'SQE', responseDays: 3, enabled: true },
  { name: '版本差异确认', role: 'PRODUCT_LINE', responseDays: 2, enabled: true },
  { name: '包装与标识', role: 'SQE', responseDays: 5, enabled: false },
];

type Step = {
  action: IssueAction;
  by: 'asker' | 'demo5' | 'system';
  days: number;
  text?: string;
  notice?: string;
  attach?: string;
};

interface DemoIssue {
  supplier: 'S001' | 'S002';
  standardCode: string;
  version: string;
  type: string;
  title: string;
  description: string;
  status: IssueStatus;
  assigned: boolean;
  /** Days relative to the seed; the first step creates, SUBMIT sets the due date from the type. */
  steps: Step[];
}

const ISSUES: DemoIssue[] = [
  {
    supplier: 'S001',
    standardCode: 'HR-BX-D003',
    version: 'B',
    type: '尺寸公差疑问',
    title: '支架安装孔位置度公差',
    description: '图纸 B 版安装孔位置度标注为 φ0.1，现有工装只能保证 φ0.2，请确认是否可放宽。',
    status: 'DRAFT',
    assigned: false,
    steps: [{ action: 'CREATE', by: 'asker', days: -1 }],
  },
  {
    supplier: 'S001',
    standardCode: 'HR-XYJ-D101',
    version: 'A',
    type: '检验标准疑问',
    title: '内桶焊缝抽检比例',
    description: '零件图未注明焊缝抽检比例，是否按 Q/HR-XYJ-S020 V2.0 执行？',
    status: 'PENDING',
    assigned: false,
    steps: [
      { action: 'CREATE', by: 'asker', days: -12 },
      { action: 'SUBMIT', by: 'asker', days: -11 },
    ],
  },
  {
    supplier: 'S001',
    standardCode: 'HR-BX-D001',
    version: 'C',
    type: '尺寸公差疑问',
    title: '加热丝走线槽深度',
    description: 'C 版新增防凝露加热丝走线槽，槽深 2.5±0.1 是否为发泡前尺寸？',
    status: 'PROCESSING',
    assigned: true,
    steps: [
      { action: 'CREATE', by: 'asker', days: -1.2 },
      { action: 'SUBMIT', by: 'asker', days: -1.1 },
      { action: 'ROUTE', by: 'system', days: -1.1 },
    ],
  },
  {
    supplier: 'S001',
    standardCode: 'HR-KT-D202',
    version: 'B',
    type: '版本差异确认',
    title: '风叶叶片数确认',
    description: '在制品按 B 版 37 片生产，请确认后续是否需按新要求调整动平衡等级。',
    status: 'ANSWERED',
    assigned: true,
    steps: [
      { action: 'CREATE', by: 'asker', days: -26 },
      { action: 'SUBMIT', by: 'asker', days: -26 },
      { action: 'ROUTE', by: 'system', days: -26 },
      {
        action: 'REPLY',
        by: 'demo5',
        days: -24,
        text: 'B 版已由 C 版替代（见变更通知），动平衡等级提高至 G2.5，在制品完工后按 C 版检验。',
        notice: 'HR-KT-D202',
        attach: '动平衡检验说明.pdf',
      },
    ],
  },
  {
    supplier: 'S001',
    standardCode: 'Q/HR-BX-S010',
    version: 'V1.0',
    type: '技术要求与材料',
    title: '焊丝牌号替代',
    description: '原规定焊丝 ER50-6 缺货，可否使用 ER49-1 替代？',
    status: 'CLOSED',
    assigned: true,
    steps: [
      { action: 'CREATE', by: 'asker', days: -40 },
      { action: 'SUBMIT', by: 'asker', days: -40 },
      { action: 'ROUTE', by: 'system', days: -40 },
      { action: 'REPLY', by: 'demo5', days: -37, text: '可以替代，焊后需增加一次外观检查，记录随货提供。' },
      { action: 'CLOSE', by: 'asker', days: -36 },
    ],
  },
  {
    supplier: 'S002',
    standardCode: 'HR-BX-D006',
    version: 'A',
    type: '尺寸公差疑问',
    title: '丝印字符高度',
    description: '面板丝印字符高度 2mm 的公差未标注，请补充。',
    status: 'PROCESSING',
    assigned: true,
    steps: [
      { action: 'CREATE', by: 'asker', days: -9 },
      { action: 'SUBMIT', by: 'asker', days: -9 },
      { action: 'ROUTE', by: 'system', days: -9 },
    ],
  },
  {
    supplier: 'S002',
    standardCode: 'HR-XYJ-D105',
    version: 'B',
    type: '技术要求与材料',
    title: '替代继电器的焊盘尺寸',
    description: 'B 版更换继电器型号后，焊盘尺寸是否同步变更？',
    status: 'ANSWERED',
    assigned: true,
    steps: [
      { action: 'CREATE', by: 'asker', days: -20 },
      { action: 'SUBMIT', by: 'asker', days: -20 },
      { action: 'ROUTE', by: 'system', days: -20 },
      { action: 'REPLY', by: 'demo5', days: -17, text: '焊盘尺寸不变，按 B 版装配图执行。' },
    ],
  },
];

const TO: Record<IssueAction, IssueStatus> = {
  CREATE: 'DRAFT',
  UPDATE: 'DRAFT',
  SUBMIT: 'PENDING',
  ROUTE: 'PROCESSING',
  ASSIGN: 'PROCESSING',
  REPLY: 'ANSWERED',
  REOPEN: 'PROCESSING',
  CLOSE: 'CLOSED',
};

export async function seedDemoDocumentIssues(db: Db, storage: Storage, now = Date.now()): Promise<void> {
  // written through the seed-only batch insert (demo-batch.ts): no Prisma query compiled for them
  const seeded = new Date(now);
  const typeIds = await insertRowsReturningIds(
    db,
    'problem_type',
    PROBLEM_TYPES.map((t) => ({ ...t, createdAt: seeded, updatedAt: seeded })),
  );
  const types = new Map(PROBLEM_TYPES.map((t, i) => [t.name, { ...t, id: typeIds[i]! }]));
  // not a scrypt hash: no password ever matches it (lib/password.ts), and seeding costs no hashing
  await db.$executeRawUnsafe(
    `INSERT INTO "app_user" ("account", "name", "nick", "type", "password_hash", "enabled", "created_at", "updated_at") VALUES ('wt-zhaoli', '赵丽', '赵丽', 5, 'no-login', true, $1::timestamp, $1::timestamp) ON CONFLICT ("account") DO NOTHING`,
    seeded.toISOString(), // its UTC time, as Prisma writes a timestamp column (the zone is ignored)
  );
  const users = new Map(
    (await db.user.findMany({ where: { account: { in: ['demo2', 'demo4', 'demo5', 'demo7', 'wt-zhaoli'] } } })).map(
      (u) => [u.account, u],
    ),
  );
  const demo5 = users.get('demo5')!;
  const zhaoli = users.get('wt-zhaoli')!;
  const by = users.get('demo7')!.name;
  await insertRows(
    db,
    'sqegx_role',
    [
      ...['BX', 'XYJ', 'KT'].map((productLineCode) => ({
        productLineCode,
        role: 'PRODUCT_LINE',
        userId: demo5.id,
        createdByName: by,
      })),
      { productLineCode: 'BX', role: 'SQE', userId: demo5.id, createdByName: by },
      { productLineCode: 'XYJ', role: 'SQE', userId: demo5.id, createdByName: by },
      { productLineCode: 'XYJ', role: 'SQE', userId: zhaoli.id, createdByName: by },
    ].map((r) => ({ ...r, createdAt: seeded })),
  );

  const stored = await storage.put(Readable.from([ATTACHMENT_PDF]), ATTACHMENT_MAX_BYTES);
  const suppliers = new Map((await db.supplier.findMany()).map((s) => [s.code, s]));

  // a table at a time (demo-batch.ts), rows in the order the questions are listed
  const files = await db.standardFile.findMany({
    where: { OR: ISSUES.map((q) => ({ standardCode: q.standardCode, version: q.version })) },
    include: { material: true },
  });
  const fileOf = (q: DemoIssue) => {
    const file = files.find((f) => f.standardCode === q.standardCode && f.version === q.version);
    if (!file) throw new Error(`demo question: no file ${q.standardCode} ${q.version}`);
    return file;
  };
  const linked = ISSUES.some((q) => q.steps.some((s) => s.notice))
    ? await db.changeNotice.findMany({
        where: { status: { in: ['PUBLISHED', 'CLOSED'] } },
        select: { id: true, changes: { select: { oldFileId: true } } },
        orderBy: { id: 'asc' },
      })
    : [];
  const at = (days: number) => new Date(now + days * DAY);
  const plans = ISSUES.map((q, n) => {
    const file = fileOf(q);
    const type = types.get(q.type)!;
    const asker = users.get(q.supplier === 'S001' ? 'demo2' : 'demo4')!;
    const submitted = q.steps.find((s) => s.action === 'SUBMIT');
    const replied = [...q.steps].reverse().find((s) => s.action === 'REPLY');
    const closed = q.steps.find((s) => s.action === 'CLOSE');
    const created = q.steps[0]!.days;
    const data = {
      number: `WT-${cstDay(at(created)).slice(0, 4)}-D${String(n + 1).padStart(3, '0')}`,
      supplierCode: q.supplier,
      supplierName: suppliers.get(q.supplier)!.name,
      fileId: file.id,
      standardCode: file.standardCode,
      version: file.version,
      materialCode: file.materialCode,
      productLineCode: file.material.productLineCode,
      problemTypeId: type.id,
      title: q.title,
      description: q.description,
      purchaser: file.material.purchaser,
      status: q.status,
      askedById: asker.id,
      askedByAccount: asker.account,
      askedByName: asker.nick,
      assigneeId: q.assigned ? demo5.id : null,
      assigneeName: q.assigned ? demo5.name : null,
      dueDate: submitted
        ? new Date(`${addWorkingDays(cstDay(at(submitted.days)), type.responseDays)}T00:00:00Z`)
        : null,
      submittedAt: submitted ? at(submitted.days) : null,
      answeredAt: replied ? at(replied.days) : null,
      closedAt: closed ? at(closed.days) : null,
      createdAt: at(created),
      updatedAt: seeded,
    };
    return { q, file, asker, data };
  });
  await db.$transaction(async (tx) => {
    const issueIds = await insertRowsReturningIds(
      tx,
      'document_issue',
      plans.map((p) => p.data),
    );
    const steps = plans.flatMap(({ q, file, asker }, i) => {
      let from: IssueStatus | null = null;
      return q.steps.map((s) => {
        const who = s.by === 'demo5' ? demo5 : asker;
        // the published (or closed) notice that replaced the asked-about version
        const notice = s.notice ? linked.find((c) => c.changes.some((ch) => ch.oldFileId === file.id)) : undefined;
        const message = {
          issueId: issueIds[i]!,
          action: s.action,
          fromStatus: from,
          toStatus: TO[s.action],
          userId: who.id,
          userAccount: who.account,
          userName: s.by === 'demo5' ? who.name : who.nick,
          userType: who.type,
          text: s.action === 'ROUTE' ? `按问题类型与产品线自动分派给 ${demo5.name}` : (s.text ?? null),
          noticeId: notice?.id ?? null,
          createdAt: at(s.days),
        };
        from = TO[s.action];
        return { s, who, message };
      });
    });
    const messageIds = await insertRowsReturningIds(
      tx,
      'document_issue_message',
      steps.map((x) => x.message),
    );
    await insertRows(
      tx,
      'document_issue_attachment',
      steps.flatMap(({ s, who, message }, k) =>
        s.attach
          ? [
              {
                issueId: message.issueId,
                messageId: messageIds[k]!,
                fileName: s.attach,
                fileSize: stored.size,
                fileType: 'pdf',
                sha256: stored.sha256,
                uploadedById: who.id,
                uploadedByName: who.name,
                createdAt: at(s.days),
              },
            ]
          : [],
      ),
    );
  });
}
