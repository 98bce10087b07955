/**
 * A hidden column is hidden wherever its fact appears in its page's calls: every governed column
 * of every page that declares one × every call of that page (list, detail, audit trail,
 * recipients, BOM tab, and the page's pickers and reverse searches): the column's values are read
 * from the answers while it is visible, then it is hidden (and then masked) for the caller's type
 * and the whole JSON of every answer is searched for those values — none may appear in full
 * anywhere (nested lists, audit trails, thread messages and their texts included). The pages are
 * compared with the calls' declarations: a page that gains governed columns fails until walked.
 *
 * Each page gets a fixture of its own whose people, reasons and addresses are unique to one fact
 * (the publisher is nobody else on the notice, …), so a value found is that fact leaking, never a
 * coincidence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCESS_REPORT_PAGE,
  ALL_ENDPOINTS,
  ARCHIVE_PAGE,
  BOM_TRACE_PAGE,
  COUNTERSIGN_LIST_PAGE,
  EMPOWER_APPROVE_PAGE,
  GRANT_HISTORY_PAGE,
  GRANT_PAGE,
  ISSUE_ANSWER_PAGE,
  LOG_ACTIONS,
  LOG_PAGES,
  NOTICE_LIST_PAGE,
  PAGES,
  PHONE_LOG_PAGE,
  SIGN_IN_LOG_PAGE,
  SUPPLIER_APPLY_PAGE,
  VISIT_LOG_PAGE,
  logsApi,
  REDACTED_NAME_TEXT,
  type EndpointDef,
  type PermissionItem,
  archivesApi,
  auditApi,
  bomApi,
  countersignApi,
  documentIssuesApi,
  empowerApi,
  noticesApi,
  permissionsApi,
  phoneLogApi,
  visitsApi,
} from '@esm/contracts';
import { api, buildTestApp, createUser, login } from './helpers.ts';
import {
  createFileVersion,
  createMaterial,
  createProductLine,
  createSupplier,
  linkSupplier,
  samplePdf,
  tempStorage,
  unique,
} from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const db = t.db.prisma;
let admin = '';

const call = (path: string, body: unknown, cookie: string) =>
  t.app.inject({ method: 'POST', url: api(path), payload: body as object, headers: { cookie } });

async function columnItem(page: string, code: string): Promise<PermissionItem> {
  const res = await call(permissionsApi.list.path, { kind: 'COLUMN', menuPage: page }, admin);
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json().data as PermissionItem[]).find((r) => r.code === code);
  if (!found) throw new Error(`no column ${page} ${code}`);
  return found;
}
async function setColumn(page: string, code: string, allowedTypes: number[], maskedTypes: number[] = []) {
  const it = await columnItem(page, code);
  const res = await call(
    permissionsApi.update.path,
    { id: it.id, version: it.version, label: it.label, allowedTypes, maskedTypes },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
}
const ALL_TYPES = [2, 3, 4, 5, 6, 7, 8, 9];

/** The texts at a column's path (`events.userName`) in an answer's rows. */
function valuesAt(node: unknown, path: string[]): string[] {
  if (Array.isArray(node)) return node.flatMap((n) => valuesAt(n, path));
  if (!node || typeof node !== 'object') return [];
  const [head = '', ...rest] = path;
  const v = (node as Record<string, unknown>)[head];
  if (rest.length === 0)
    return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && x.length >= 2);
  return valuesAt(v, rest);
}
const rowsOf = (json: { data: unknown }) => (Array.isArray(json.data) ? json.data : [json.data]);

interface Walk {
  page: string;
  /** The user type that reads the page here, and its cookie. */
  type: number;
  cookie: () => string;
  /** A request for every call of the page that answers governed rows (path → bodies). */
  samples: () => Record<string, unknown[]>;
  /** Calls of the page that change something: not walked (they answer through the same function). */
  moves: string[];
  /** Other reads of the page (pickers, reverse searches) that declare no columns: searched all the same. */
  extras?: () => Record<string, unknown[]>;
  /** Columns the page's reads never carry a value of (code → why): walked all the same. */
  notShown?: Record<string, string>;
}

/** The pages walked: the coverage test below compares them with every page that declares governed columns. */
const walked: string[] = [];

/** Every call declared with governed columns of `page`, and the codes of all its governed columns. */
function declared(page: string) {
  const calls = ALL_ENDPOINTS.filter((e: EndpointDef) => e.columns?.page === page && e.kind !== 'bytes');
  const codes = [...new Set(calls.flatMap((e) => Object.keys(e.columns!.columns)))];
  return { calls: calls.map((e) => e.path), codes };
}

async function answers(w: Walk) {
  const out: { path: string; json: { data: unknown } }[] = [];
  for (const [path, bodies] of Object.entries({ ...w.samples(), ...w.extras?.() })) {
    for (const body of bodies) {
      const res = await call(path, body, w.cookie());
      expect(res.statusCode, `${path} ${res.body.slice(0, 300)}`).toBe(200);
      out.push({ path, json: res.json() });
    }
  }
  return out;
}

function walk(w: Walk) {
  walked.push(w.page);
  describe(w.page, () => {
    it('every call of the page that answers governed rows is walked (the others change something)', () => {
      const { calls } = declared(w.page);
      expect([...Object.keys(w.samples()), ...w.moves].sort()).toEqual([...calls].sort());
    });

    it('each governed column, hidden or masked: its values appear in full nowhere in any call of the page', async () => {
      const { codes } = declared(w.page);
      expect(codes.length).toBeGreaterThan(0);
      const leaks: string[] = [];
      for (const code of codes) {
        const visible = await answers(w);
        const values = [
          ...new Set(visible.flatMap((a) => rowsOf(a.json).flatMap((r) => valuesAt(r, code.split('.'))))),
        ];
        // the fixture shows every column (but those the page's reads never carry)
        if (w.notShown?.[code]) expect(values, `${w.page} ${code}: ${w.notShown[code]}`).toEqual([]);
        else expect(values, `${w.page} ${code}: the fixture shows no value`).not.toEqual([]);
        // hidden, then masked: in neither may the full value appear
        for (const masked of [[], [w.type]]) {
          await setColumn(
            w.page,
            code,
            ALL_TYPES.filter((x) => x !== w.type),
            masked,
          );
          try {
            for (const a of await answers(w)) {
              const text = JSON.stringify(a.json);
              for (const v of values)
                if (text.includes(v))
                  leaks.push(`${code} ${masked.length ? 'masked' : 'hidden'}: ${a.path} still answers "${v}"`);
            }
          } finally {
            await setColumn(w.page, code, ALL_TYPES);
          }
        }
      }
      expect(leaks).toEqual([]);
    });
  });
}

// ---- the fixtures ------------------------------------------------------------------------------------

const tag = unique();
const f = {} as {
  supplier: { code: string; name: string };
  issue: { id: number; number: string; answerer: { id: number; name: string } };
  /** A question 处理中 held by the same answerer, and the data to create more. */
  held: { id: number; number: string };
  answererCookie: string;
  readerId: number;
  notice: { id: number; number: string };
  application: { id: number };
  cookies: Record<string, string>;
  material: string;
  archive: { standardCode: string; fileId: number };
  countersign: { id: number };
  logUsers: { visit: string; signIn: string; phone: string };
};

beforeAll(async () => {
  admin = await login(t.app, 'demo7');
  const line = await createProductLine(db);
  const material = await createMaterial(db, line.code);
  const supplier = await createSupplier(db, '事实');
  await linkSupplier(db, supplier.code, material.code);
  f.supplier = { code: supplier.code, name: supplier.name };
  const file = await createFileVersion(db, files.storage, {
    materialCode: material.code,
    type: 'pdf',
    bytes: await samplePdf(1),
  });
  const asker = await createUser(t.db, { type: 2, supplierCode: supplier.code, prefix: 'sup' });
  const reader = await createUser(t.db, { type: 5, prefix: 'wt' });
  const answererUser = await createUser(t.db, { type: 5, prefix: 'wt' });
  const answererName = `回复人${tag}`;
  await db.user.update({ where: { id: answererUser.id }, data: { name: answererName } });
  f.cookies = {
    reader5: await login(t.app, reader.account),
    admin9: await login(t.app, 'demo9'),
    approver6: await login(t.app, 'demo6'),
    supplier2: await login(t.app, asker.account),
  };
  f.material = material.code;

  // a question answered by 回复人<tag>: routed to them, taken again with a reason, answered
  const type = await db.problemType.create({ data: { name: `图纸问题${tag}`, role: 'SQE', responseDays: 3 } });
  const number = `WT${tag}`.slice(0, 20);
  const issue = await db.documentIssue.create({
    data: {
      number,
      supplierCode: supplier.code,
      supplierName: supplier.name,
      fileId: file.id,
      standardCode: file.standardCode,
      version: file.version,
      materialCode: material.code,
      productLineCode: line.code,
      problemTypeId: type.id,
      title: `孔位公差${tag}`,
      description: `问题描述${tag}`,
      status: 'ANSWERED',
      askedById: asker.id,
      askedByAccount: asker.account,
      askedByName: `提问人${tag}`,
      assigneeId: answererUser.id,
      assigneeName: answererName,
      submittedAt: new Date(),
      answeredAt: new Date(),
    },
  });
  const message = (
    action: string,
    from: string | null,
    to: string,
    who: { id: number; account: string; name: string; type: number },
    text: string | null,
  ) =>
    db.documentIssueMessage.create({
      data: {
        issueId: issue.id,
        action,
        fromStatus: from,
        toStatus: to,
        userId: who.id,
        userAccount: who.account,
        userName: who.name,
        userType: who.type,
        text,
      },
    });
  const askerWho = { id: asker.id, account: asker.account, name: `提问人${tag}`, type: 2 };
  const answerer = { id: answererUser.id, account: answererUser.account, name: answererName, type: 5 };
  await message('CREATE', null, 'DRAFT', askerWho, null);
  await message('SUBMIT', 'DRAFT', 'PENDING', askerWho, null);
  await message('ROUTE', 'PENDING', 'PROCESSING', askerWho, `按问题类型与产品线自动分派给 ${answererName}`);
  await message('ASSIGN', 'PROCESSING', 'PROCESSING', answerer, `${answererName} 领取了该问题。原因：本人负责该产品线`);
  const reply = await message('REPLY', 'PROCESSING', 'ANSWERED', answerer, `公差按图纸标注执行（${answererName}）`);
  // the answerer's reply came with an attachment, the question with the supplier's own
  const attachment = (messageId: number | null, by: { id: number; name: string }, supplierCode: string | null) =>
    db.documentIssueAttachment.create({
      data: {
        issueId: issue.id,
        messageId,
        fileName: `附件${by.id}.pdf`,
        fileSize: 10,
        fileType: 'pdf',
        sha256: 'b'.repeat(64),
        uploadedById: by.id,
        uploadedByName: by.name,
        supplierCode,
      },
    });
  await attachment(reply.id, { id: answererUser.id, name: answererName }, null);
  await attachment(null, { id: asker.id, name: `提问人${tag}` }, supplier.code);
  f.issue = { id: issue.id, number, answerer: { id: answererUser.id, name: answererName } };
  const held = await db.documentIssue.create({
    data: {
      number: `WH${tag}`.slice(0, 20),
      supplierCode: supplier.code,
      supplierName: supplier.name,
      fileId: file.id,
      standardCode: file.standardCode,
      version: file.version,
      materialCode: material.code,
      productLineCode: line.code,
      problemTypeId: type.id,
      title: `处理中${tag}`,
      description: `处理中描述${tag}`,
      status: 'PROCESSING',
      dueDate: new Date(Date.now() + 3 * 86_400_000),
      askedById: asker.id,
      askedByAccount: asker.account,
      askedByName: `提问人${tag}`,
      assigneeId: answererUser.id,
      assigneeName: answererName,
      submittedAt: new Date(),
    },
  });
  f.held = { id: held.id, number: held.number };
  f.answererCookie = await login(t.app, answererUser.account);
  f.readerId = reader.id;

  // a withdrawn notice: created, published, read and confirmed by one supplier, withdrawn — each by someone else
  const noticeNumber = `BG-T-${tag}`.slice(0, 20);
  const person = (role: string) => ({
    userId: asker.id,
    userAccount: `${role}${tag}`.toLowerCase().slice(0, 60),
    userName: `${role}人${tag}`,
  });
  const notice = await db.changeNotice.create({
    data: {
      number: noticeNumber,
      title: `图纸变更${tag}`,
      reason: '设计优化',
      productLineCode: line.code,
      status: 'WITHDRAWN',
      dueDate: new Date(Date.now() + 7 * 86_400_000),
      createdById: asker.id,
      createdByName: `创建人${tag}`,
      publishedAt: new Date(),
      publishedByName: `发布人${tag}`,
      withdrawnAt: new Date(),
      withdrawnByName: `撤回人${tag}`,
      withdrawReason: `撤回原因${tag}`,
    },
  });
  const n = Number.parseInt(tag.slice(-2), 36) % 200;
  const ip = (k: number) => `10.${200 + (k % 50)}.${n}.${k}`;
  await db.noticeRecipient.create({
    data: {
      noticeId: notice.id,
      supplierCode: supplier.code,
      supplierName: supplier.name,
      basis: [],
      status: 'CONFIRMED',
      readAt: new Date(),
      readByAccount: `reader${tag}`.toLowerCase(),
      readByName: `阅读人${tag}`,
      readIp: ip(11),
      confirmedAt: new Date(),
      confirmedByAccount: `confirmer${tag}`.toLowerCase(),
      confirmedByName: `确认人${tag}`,
      confirmedIp: ip(12),
    },
  });
  const event = (
    action: string,
    who: { userId: number; userAccount: string; userName: string },
    at: string,
    detail: string | null = null,
    supplierCode: string | null = null,
  ) => db.noticeEvent.create({ data: { noticeId: notice.id, action, supplierCode, ...who, ip: at, detail } });
  await event('CREATE', person('创建'), ip(13));
  await event('PUBLISH', person('发布'), ip(14));
  await event(
    'READ',
    { userId: asker.id, userAccount: `reader${tag}`.toLowerCase(), userName: `阅读人${tag}` },
    ip(11),
    null,
    supplier.code,
  );
  await event(
    'CONFIRM',
    { userId: asker.id, userAccount: `confirmer${tag}`.toLowerCase(), userName: `确认人${tag}` },
    ip(12),
    null,
    supplier.code,
  );
  await event('WITHDRAW', person('撤回'), ip(15), `撤回原因${tag}`);
  f.notice = { id: notice.id, number: noticeNumber };

  // an application rejected by 审批人<tag> with a comment of its own
  const application = await db.empowerApplication.create({
    data: {
      supplierCode: supplier.code,
      status: 'REJECTED',
      validFrom: new Date('2027-01-01'),
      validUntil: new Date('2027-06-30'),
      reason: '新项目需要图纸',
      applicantId: asker.id,
      applicantAccount: `applicant${tag}`.toLowerCase(),
      applicantName: `申请人${tag}`,
      submittedAt: new Date(),
      deciderId: asker.id,
      deciderAccount: `decider${tag}`.toLowerCase(),
      deciderName: `审批人${tag}`,
      decidedAt: new Date(),
      decisionComment: `驳回意见${tag}`,
      materials: { create: [{ materialCode: material.code }] },
    },
  });
  const audit = (
    action: string,
    from: string | null,
    to: string,
    who: { account: string; name: string; type: number },
    at: string,
    comment: string | null = null,
  ) =>
    db.empowerAudit.create({
      data: {
        applicationId: application.id,
        action,
        fromStatus: from,
        toStatus: to,
        userId: asker.id,
        userAccount: who.account,
        userName: who.name,
        userType: who.type,
        ip: at,
        comment,
      },
    });
  const applicant = { account: `applicant${tag}`.toLowerCase(), name: `申请人${tag}`, type: 2 };
  await audit('CREATE', null, 'DRAFT', applicant, ip(21));
  await audit('SUBMIT', 'DRAFT', 'SUBMITTED', applicant, ip(21));
  await audit(
    'REJECT',
    'SUBMITTED',
    'REJECTED',
    { account: `decider${tag}`.toLowerCase(), name: `审批人${tag}`, type: 6 },
    ip(22),
    `驳回意见${tag}`,
  );
  f.application = { id: application.id };

  // a BOM with a level-2 and a level-3 line, each with its vendor's contact
  const l2 = await db.bomLine.create({
    data: {
      supplierCode: supplier.code,
      materialCode: material.code,
      parentCode: material.code,
      level: 2,
      componentCode: `C2${tag}`.slice(0, 40),
      componentName: '门体骨架',
      quantity: 1,
      unit: '件',
      vendorName: `二级供应商${tag}`,
      vendorCreditCode: `91330200${tag}`.slice(0, 18).padEnd(18, '0'),
      vendorContact: `联系人甲${tag}`,
      vendorMobile: '13900005601',
      sortNo: 1,
      updatedBy: 'demo2',
    },
  });
  await db.bomLine.create({
    data: {
      supplierCode: supplier.code,
      materialCode: material.code,
      parentId: l2.id,
      parentCode: l2.componentCode,
      level: 3,
      componentCode: `C3${tag}`.slice(0, 40),
      componentName: '铆钉',
      quantity: 8,
      unit: '个',
      vendorName: `三级供应商${tag}`,
      vendorCreditCode: `91330201${tag}`.slice(0, 18).padEnd(18, '1'),
      vendorContact: `联系人乙${tag}`,
      vendorMobile: '13900005602',
      sortNo: 1,
      updatedBy: 'demo2',
    },
  });
});
beforeAll(async () => {
  // every value below is of one fact only: a value found where its column is hidden is that fact leaking
  const supplier = await db.supplier.findUniqueOrThrow({ where: { code: f.supplier.code } });
  const asker = await db.user.findFirstOrThrow({ where: { supplierCode: supplier.code, type: 2 } });
  const n = (Number.parseInt(tag.slice(-3), 36) % 200) + 1;
  const ip = (k: number) => `172.${16 + (k % 16)}.${n}.${k}`;

  // 企业标准档案: an obsolete version and its effective successor, each uploaded by someone of its own
  const standardCode = `Q/WT-${tag}`.slice(0, 60);
  const v1 = await createFileVersion(db, files.storage, {
    materialCode: f.material,
    type: 'pdf',
    bytes: await samplePdf(1),
    standardCode,
    status: 'OBSOLETE',
  });
  await db.standardFile.update({
    where: { id: v1.id },
    data: { uploaderName: `旧版上传人${tag}`, obsoleteReason: `作废原因${tag}`, remark: `旧版备注${tag}` },
  });
  const v2 = await createFileVersion(db, files.storage, {
    materialCode: f.material,
    type: 'pdf',
    bytes: await samplePdf(2),
    standardCode,
  });
  await db.standardFile.update({
    where: { id: v2.id },
    data: { uploaderName: `新版上传人${tag}`, remark: `新版备注${tag}` },
  });
  f.archive = { standardCode, fileId: v2.id };

  // 授权中的图纸 / 授权历史: a grant in force and a revoked one, approved and revoked by people of their own
  const day = 86_400_000;
  await db.empowerGrant.create({
    data: {
      supplierCode: supplier.code,
      materialCode: f.material,
      validFrom: new Date(Date.now() - 30 * day),
      validUntil: new Date(Date.now() + 30 * day),
      createdBy: 'demo6',
      approverId: asker.id,
      approverAccount: `grantok${tag}`.toLowerCase(),
      approverName: `在期审批人${tag}`,
      approvedAt: new Date(Date.now() - 30 * day),
    },
  });
  await db.empowerGrant.create({
    data: {
      supplierCode: supplier.code,
      materialCode: f.material,
      validFrom: new Date(Date.now() - 60 * day),
      validUntil: new Date(Date.now() + 60 * day),
      revokedAt: new Date(Date.now() - 40 * day),
      createdBy: 'demo6',
      approverId: asker.id,
      approverAccount: `grantrv${tag}`.toLowerCase(),
      approverName: `撤销前审批人${tag}`,
      approvedAt: new Date(Date.now() - 60 * day),
      revokedById: asker.id,
      revokedByAccount: `revoker${tag}`.toLowerCase(),
      revokedByName: `撤销人${tag}`,
      revokeReason: `撤销原因${tag}`,
    },
  });

  // the five archive logs (the view also in the access report), each row by a user and from an address of its own
  const actions = ['VIEW', 'CONFIRM', 'DOWNLOAD', 'PRINT', 'KEEPSECRET'] as const;
  for (const [i, action] of actions.entries()) {
    await db.accessLog.create({
      data: {
        action,
        userId: asker.id,
        userAccount: `log${action}${tag}`.toLowerCase().slice(0, 60),
        userName: `${action}访问人${tag}`,
        userType: 2,
        supplierCode: supplier.code,
        supplierName: supplier.name,
        fileId: action === 'KEEPSECRET' ? null : v2.id,
        standardCode: action === 'KEEPSECRET' ? null : standardCode,
        fileName: action === 'KEEPSECRET' ? null : v2.fileName,
        version: action === 'KEEPSECRET' ? null : v2.version,
        materialCode: action === 'KEEPSECRET' ? null : f.material,
        ip: ip(41 + i),
      },
    });
  }

  // 访问日志, 登录日志, 手机号查看日志
  f.logUsers = {
    visit: `visit${tag}`.toLowerCase(),
    signIn: `signin${tag}`.toLowerCase(),
    phone: `phone${tag}`.toLowerCase(),
  };
  await db.visitEvent.create({
    data: {
      userId: asker.id,
      userType: 2,
      userCode: f.logUsers.visit,
      userName: `访问人${tag}`,
      menuName: '企业标准档案',
      path: '/esm/supplier/archive',
      ip: ip(51),
    },
  });
  await db.signInLog.create({
    data: {
      userId: asker.id,
      account: f.logUsers.signIn,
      source: 'password',
      ip: ip(52),
      success: true,
      code: '10000000',
      reason: '登录成功',
    },
  });
  await db.phoneViewLog.create({
    data: {
      viewerId: asker.id,
      viewerAccount: f.logUsers.phone,
      viewerName: `查看人${tag}`,
      viewerType: 7,
      contactId: 1,
      contactKind: 'SUPPLIER',
      contactName: `联系人丙${tag}`,
      maskedMobile: '139****5603',
      page: '/esm/system/contacts',
      ip: ip(53),
    },
  });

  // 会签单: issued, returned by the supplier's signer, cancelled — each step by someone of its own
  const cs = await db.countersign.create({
    data: {
      number: `HQ-T-${tag}`.slice(0, 20),
      title: `会签${tag}`,
      supplierCode: supplier.code,
      items: '确认图纸变更',
      dueDate: new Date(Date.now() + 7 * day),
      fileIds: [v2.id],
      signerIds: [],
      status: 'CANCELLED',
      round: 1,
      step: 0,
      createdById: asker.id,
      createdByName: `会签创建人${tag}`,
      issuedAt: new Date(),
      cancelledAt: new Date(),
      cancelReason: `取消原因${tag}`,
    },
  });
  const sha = 'a'.repeat(64);
  await db.countersignRound.create({
    data: {
      countersignId: cs.id,
      round: 1,
      content: {
        title: `会签${tag}`,
        items: '确认图纸变更',
        dueDate: '2027-01-01',
        supplierCode: supplier.code,
        supplierName: supplier.name,
        noticeNumber: null,
        files: [],
        signers: [],
      },
      contentSha256: sha,
      issuedAt: new Date(),
      issuedByName: `会签下发人${tag}`,
      outcome: 'RETURNED',
      endedAt: new Date(),
    },
  });
  await db.countersignSignature.create({
    data: {
      countersignId: cs.id,
      round: 1,
      step: 0,
      userId: asker.id,
      userAccount: `cssigner${tag}`.toLowerCase(),
      userName: `会签签署人${tag}`,
      supplierCode: supplier.code,
      supplierName: supplier.name,
      decision: 'RETURN',
      comment: '请补充尺寸',
      contentSha256: sha,
      ip: ip(61),
    },
  });
  const csEvent = (action: string, round: number, who: string, at: string, detail: string | null = null) =>
    db.countersignEvent.create({
      data: {
        countersignId: cs.id,
        round,
        action,
        userId: asker.id,
        userAccount: `cs${who}${tag}`.toLowerCase(),
        userName: `会签${who}人${tag}`,
        ip: at,
        detail,
      },
    });
  await csEvent('CREATE', 0, '创建', ip(62));
  await csEvent('ISSUE', 1, '下发', ip(63));
  await csEvent('RETURN', 1, '签署', ip(61));
  await csEvent('CANCEL', 1, '取消', ip(64), `取消原因${tag}`);
  f.countersign = { id: cs.id };
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

walk({
  page: ISSUE_ANSWER_PAGE,
  type: 5,
  cookie: () => f.cookies.reader5!,
  samples: () => ({
    [documentIssuesApi.page.path]: [{ scope: 'ALL', keyword: f.issue.number }],
    [documentIssuesApi.find.path]: [{ id: f.issue.id }],
    [documentIssuesApi.files.path]: [{ id: f.issue.id }],
  }),
  moves: [documentIssuesApi.assign.path, documentIssuesApi.reply.path],
});

walk({
  page: NOTICE_LIST_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({
    [noticesApi.page.path]: [{ number: f.notice.number }],
    [noticesApi.detail.path]: [{ id: f.notice.id }],
    [noticesApi.recipients.path]: [{ id: f.notice.id }],
    [noticesApi.supplierDetail.path]: [{ supplierCode: f.supplier.code }],
  }),
  moves: [
    noticesApi.create.path,
    noticesApi.update.path,
    noticesApi.publish.path,
    noticesApi.withdraw.path,
    noticesApi.close.path,
  ],
});

walk({
  page: EMPOWER_APPROVE_PAGE,
  type: 6,
  cookie: () => f.cookies.approver6!,
  samples: () => ({
    [empowerApi.applications.path]: [{ supplierCode: f.supplier.code }],
    [empowerApi.audit.path]: [{ id: f.application.id }],
  }),
  moves: [],
});

walk({
  page: BOM_TRACE_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({
    [bomApi.haierTree.path]: [
      { supplierCode: f.supplier.code, view: 'tree' },
      { supplierCode: f.supplier.code, view: 'flat' },
    ],
    [bomApi.haierVendors.path]: [{ supplierCode: f.supplier.code }],
  }),
  moves: [],
  extras: () => ({
    [bomApi.whereUsed.path]: [{ vendor: `二级供应商${tag}` }, { vendor: `三级供应商${tag}` }],
  }),
});

const today = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

walk({
  page: ARCHIVE_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({
    [archivesApi.files.path]: [{ standardCode: f.archive.standardCode }],
    [archivesApi.history.path]: [{ standardCode: f.archive.standardCode }],
  }),
  moves: [archivesApi.upload.path, archivesApi.obsolete.path],
  extras: () => ({ [archivesApi.fileSuppliers.path]: [{ id: f.archive.fileId }] }),
});

walk({
  page: COUNTERSIGN_LIST_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({
    [countersignApi.page.path]: [{ supplierCode: f.supplier.code }],
    [countersignApi.detail.path]: [{ id: f.countersign.id }],
  }),
  moves: [
    countersignApi.create.path,
    countersignApi.update.path,
    countersignApi.issue.path,
    countersignApi.cancel.path,
  ],
  extras: () => ({
    [countersignApi.files.path]: [{ supplierCode: f.supplier.code }],
    [countersignApi.signers.path]: [{}],
  }),
});

walk({
  page: GRANT_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [empowerApi.grants.path]: [{ supplierCode: f.supplier.code }] }),
  moves: [empowerApi.revoke.path],
  notShown: { revokeReason: 'the page lists grants in force; a revoked one is on 授权历史' },
});

walk({
  page: GRANT_HISTORY_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [empowerApi.overdue.path]: [{ supplierCode: f.supplier.code }] }),
  moves: [],
});

walk({
  page: ACCESS_REPORT_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [empowerApi.report.path]: [{ materialCode: f.material, date: today() }] }),
  moves: [],
});

walk({
  page: SUPPLIER_APPLY_PAGE,
  type: 2,
  cookie: () => f.cookies.supplier2!,
  samples: () => ({ [empowerApi.supplierAudit.path]: [{ id: f.application.id }] }),
  moves: [],
});

for (const action of LOG_ACTIONS) {
  walk({
    page: LOG_PAGES[action],
    type: 9,
    cookie: () => f.cookies.admin9!,
    samples: () => ({ [logsApi[action].path]: [{ supplierCode: f.supplier.code }] }),
    moves: [],
  });
}

walk({
  page: VISIT_LOG_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [visitsApi.page.path]: [{ keyword: f.logUsers.visit }] }),
  moves: [],
});

walk({
  page: SIGN_IN_LOG_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [visitsApi.signInLog.path]: [{ keyword: f.logUsers.signIn }] }),
  moves: [],
});

walk({
  page: PHONE_LOG_PAGE,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [phoneLogApi.page.path]: [{ viewer: f.logUsers.phone }] }),
  moves: [],
});

// 操作审计: the application's trail (its applicant's and decider's acts, addresses and the comment)
walk({
  page: PAGES.operationAudit.path,
  type: 9,
  cookie: () => f.cookies.admin9!,
  samples: () => ({ [auditApi.operations.path]: [{ kind: 'APPLICATION', keyword: `#${f.application.id}` }] }),
  moves: [],
});

describe('coverage', () => {
  it('every page with governed columns (as the calls declare them) is walked: a new one fails here until it is', () => {
    const declaredPages = [
      ...new Set(ALL_ENDPOINTS.flatMap((e: EndpointDef) => (e.columns ? [e.columns.page] : []))),
    ].sort();
    expect([...new Set(walked)].sort()).toEqual(declaredPages);
  });
});

describe('what a thread shows with 回复人 hidden or masked (the answerers’ page)', () => {
  const detail = async () =>
    (await call(documentIssuesApi.find.path, { id: f.issue.id }, f.cookies.reader5!)).json().data;

  it('hidden: no assignee id, the answerer’s messages without author, the texts name （已隐藏）, the reason stays', async () => {
    await setColumn(
      ISSUE_ANSWER_PAGE,
      'assigneeName',
      ALL_TYPES.filter((x) => x !== 5),
    );
    try {
      const d = await detail();
      expect(d).not.toHaveProperty('assigneeId');
      expect(d).not.toHaveProperty('assigneeName');
      const byAction = Object.fromEntries((d.messages as { action: string }[]).map((m) => [m.action, m]));
      expect(byAction.REPLY).not.toHaveProperty('userName');
      expect(byAction.REPLY).not.toHaveProperty('userAccount');
      expect(byAction.ROUTE).toMatchObject({ text: `按问题类型与产品线自动分派给 ${REDACTED_NAME_TEXT}` });
      expect(byAction.ROUTE).toHaveProperty('userName', `提问人${tag}`); // the supplier's own message keeps its author
      expect(byAction.ASSIGN).toMatchObject({ text: `${REDACTED_NAME_TEXT} 领取了该问题。原因：本人负责该产品线` });
    } finally {
      await setColumn(ISSUE_ANSWER_PAGE, 'assigneeName', ALL_TYPES);
    }
  });

  it('masked: names masked in the fields and inside the texts', async () => {
    await setColumn(
      ISSUE_ANSWER_PAGE,
      'assigneeName',
      ALL_TYPES.filter((x) => x !== 5),
      [5],
    );
    try {
      const d = await detail();
      expect(d.assigneeName).toBe('回****');
      const byAction = Object.fromEntries((d.messages as { action: string }[]).map((m) => [m.action, m]));
      expect(byAction.REPLY).toMatchObject({ userName: '回****' });
      expect(byAction.ROUTE).toMatchObject({ text: '按问题类型与产品线自动分派给 回****' });
    } finally {
      await setColumn(ISSUE_ANSWER_PAGE, 'assigneeName', ALL_TYPES);
    }
  });
});

describe('what the answerers’ page says of who holds a question, with 回复人 hidden or masked', () => {
  const hidden = () =>
    setColumn(
      ISSUE_ANSWER_PAGE,
      'assigneeName',
      ALL_TYPES.filter((x) => x !== 5),
    );
  const masked = () =>
    setColumn(
      ISSUE_ANSWER_PAGE,
      'assigneeName',
      ALL_TYPES.filter((x) => x !== 5),
      [5],
    );
  const visible = () => setColumn(ISSUE_ANSWER_PAGE, 'assigneeName', ALL_TYPES);
  /** Another answerer's refused moves on a question 处理中 held by 回复人<tag>. */
  const refusals = async () => {
    const reply = await call(
      documentIssuesApi.reply.path,
      { id: f.held.id, text: '我来回答', attachmentIds: [] },
      f.cookies.reader5!,
    );
    const take = await call(documentIssuesApi.assign.path, { id: f.held.id, userId: f.readerId }, f.cookies.reader5!);
    const same = await call(
      documentIssuesApi.assign.path,
      { id: f.held.id, userId: f.issue.answerer.id, reason: '仍由原处理人处理' },
      f.cookies.reader5!,
    );
    for (const r of [reply, take, same]) expect(r.statusCode, r.body).toBe(409);
    return {
      reply: reply.json().message as string,
      take: take.json().message as string,
      same: same.json().message as string,
    };
  };

  it('visible: the 409s name who holds it', async () => {
    const m = await refusals();
    expect(m.reply).toBe(`该问题由 ${f.issue.answerer.name} 处理，只有处理人可以回复；如需处理请先改派给自己`);
    expect(m.take).toBe(`该问题已由 ${f.issue.answerer.name} 领取，请刷新后重试`);
    expect(m.same).toBe(`该问题已由 ${f.issue.answerer.name} 处理`);
  });

  it('hidden: the 409s say it without the name', async () => {
    await hidden();
    try {
      const m = await refusals();
      expect(m.reply).toBe('该问题由他人处理，只有处理人可以回复；如需处理请先改派给自己');
      expect(m.take).toBe('该问题已被他人领取，请刷新后重试');
      expect(m.same).toBe('该问题已由所选处理人处理');
      for (const text of Object.values(m)) expect(text).not.toContain(f.issue.answerer.name);
    } finally {
      await visible();
    }
  });

  it('masked: the 409s mask the name', async () => {
    await masked();
    try {
      const m = await refusals();
      expect(m.reply).toBe('该问题由 回**** 处理，只有处理人可以回复；如需处理请先改派给自己');
      expect(m.take).toBe('该问题已由 回**** 领取，请刷新后重试');
    } finally {
      await visible();
    }
  });

  it('hidden: the assignee sees "assigned to me" from the server, the others do not, and no id tells who', async () => {
    await hidden();
    try {
      const mineRes = await call(documentIssuesApi.find.path, { id: f.held.id }, f.answererCookie);
      expect(mineRes.statusCode, mineRes.body).toBe(200);
      const mine = mineRes.json().data;
      const theirs = (await call(documentIssuesApi.find.path, { id: f.held.id }, f.cookies.reader5!)).json().data;
      expect(mine).toMatchObject({ assignedToMe: true });
      expect(theirs).toMatchObject({ assignedToMe: false });
      for (const d of [mine, theirs]) expect(d).not.toHaveProperty('assigneeId');
      const rows = (
        await call(documentIssuesApi.page.path, { scope: 'ALL', keyword: f.held.number }, f.answererCookie)
      ).json().data;
      expect(rows).toEqual([expect.objectContaining({ id: f.held.id, assignedToMe: true })]);
      expect(rows[0]).not.toHaveProperty('assigneeId');
      const pool = (
        await call(documentIssuesApi.page.path, { scope: 'ALL', keyword: f.held.number }, f.cookies.reader5!)
      ).json().data;
      expect(pool).toEqual([expect.objectContaining({ id: f.held.id, assignedToMe: false })]);
    } finally {
      await visible();
    }
  });

  it('hidden: the answerer picker lists the answerers alone — nothing in it resolves to who holds which question', async () => {
    await hidden();
    try {
      const res = await call(documentIssuesApi.handlers.path, {}, f.cookies.reader5!);
      expect(res.statusCode).toBe(200);
      const list = res.json().data as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(0);
      for (const h of list) expect(Object.keys(h).sort()).toEqual(['account', 'id', 'name']);
      // and no answer of the page carries an id or a name the picker would resolve
      const detail = JSON.stringify(
        (await call(documentIssuesApi.find.path, { id: f.held.id }, f.cookies.reader5!)).json(),
      );
      expect(detail).not.toContain(f.issue.answerer.name);
      expect(detail).not.toMatch(new RegExp(`"assigneeId":${f.issue.answerer.id}\\b`));
    } finally {
      await visible();
    }
  });
});

describe('what the approvers’ page says of who decided an application, with 审批人 hidden or masked', () => {
  const approveAgain = async () => {
    const res = await call(
      empowerApi.approve.path,
      { ids: [f.application.id], decision: 'APPROVE' },
      f.cookies.approver6!,
    );
    expect(res.statusCode, res.body).toBe(409);
    return res.json().message as string;
  };
  const set = (masked: number[]) =>
    setColumn(
      EMPOWER_APPROVE_PAGE,
      'deciderName',
      ALL_TYPES.filter((x) => x !== 6),
      masked,
    );

  it('visible: the 409 of a second decision names the decider', async () => {
    expect(await approveAgain()).toMatch(new RegExp(`^该申请已审批：已驳回（审批人${tag}，.+），不能再次审批$`));
  });

  it('hidden: said without the name; masked: the name masked', async () => {
    await set([]);
    try {
      expect(await approveAgain()).toBe('该申请已审批：已驳回，不能再次审批');
    } finally {
      await setColumn(EMPOWER_APPROVE_PAGE, 'deciderName', ALL_TYPES);
    }
    await set([6]);
    try {
      expect(await approveAgain()).toMatch(/^该申请已审批：已驳回（审\*{4}，.+），不能再次审批$/);
    } finally {
      await setColumn(EMPOWER_APPROVE_PAGE, 'deciderName', ALL_TYPES);
    }
  });
});
