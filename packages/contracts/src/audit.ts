/**
 * 审计校验 (system → audit verification): the tamper-evident chain over the rows that record acts.
 * The page shows the last verification (run from `pnpm audit:verify` or from here) and the chain
 * head of each day, which an operator exports and keeps outside the database.
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { AUDIT_VERIFY_PAGE, LEAK_TRACE_PAGE } from './page-paths.ts';
import { PAGES } from './pages.ts';
import { ZPageRequest } from './paging.ts';

export { AUDIT_VERIFY_PAGE, LEAK_TRACE_PAGE };
const tag = 'audit';

export const AUDIT_PROBLEM_KINDS = ['changed', 'deleted', 'inserted', 'head'] as const;
export const AUDIT_PROBLEM_LABELS: Record<(typeof AUDIT_PROBLEM_KINDS)[number], string> = {
  changed: '内容被修改',
  deleted: '行被删除',
  inserted: '绕过链写入',
  head: '与记录的链头不符',
};
export const AUDIT_SOURCE_LABELS = { CLI: '命令行（pnpm audit:verify）', PAGE: '审计校验页面' } as const;

export const ZAuditProblem = z.object({
  table: z.string(),
  kind: z.enum(AUDIT_PROBLEM_KINDS),
  id: z.number().int().nullable(),
  seq: z.number().int().nullable(),
  message: z.string(),
});
export const ZChainHead = z.object({ table: z.string(), label: z.string(), seq: z.number().int(), hash: z.string() });
export const ZAuditVerification = z.object({
  id: z.number().int(),
  source: z.enum(['CLI', 'PAGE']),
  userName: z.string(),
  ok: z.boolean(),
  rows: z.number().int(),
  createdAt: z.string(),
  problems: z.array(ZAuditProblem),
  heads: z.array(ZChainHead),
});
export type AuditVerification = z.infer<typeof ZAuditVerification>;

export const ZDayHead = z.object({
  day: z.string(),
  table: z.string(),
  label: z.string(),
  seq: z.number().int(),
  hash: z.string(),
});
export type DayHead = z.infer<typeof ZDayHead>;

export const ZDayHeadsRequestSchema = withDateRange(z.object({ dateFrom: zOptionalDate, dateTo: zOptionalDate }));
export type DayHeadsRequest = z.input<typeof ZDayHeadsRequestSchema>;
/** The longest range of days one answer covers. */
export const DAY_HEADS_MAX_DAYS = 366;

/** The exported file, which `pnpm audit:verify --heads FILE` reads. */
export const HEADS_FILE_KIND = 'esm-audit-heads';

// ---- leak tracing (泄露追溯): a copy found outside → the log row of the copy it came from

export const ZTraceCodeRequestSchema = z.object({ code: zText('复制码', 40) });
export type TraceCodeRequest = z.input<typeof ZTraceCodeRequestSchema>;
/** A PDF found outside, uploaded to read its copy code from its metadata. */
export const TRACE_FILE_MAX_BYTES = 50 * 1024 * 1024;

export const ZCopyTrace = z.object({
  copyCode: z.string(),
  logId: z.number().int(),
  action: z.string(),
  outcome: z.string(),
  userAccount: z.string(),
  userName: z.string(),
  userType: z.number().int(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  standardCode: z.string().nullable(),
  fileName: z.string().nullable(),
  version: z.string().nullable(),
  materialCode: z.string().nullable(),
  materialName: z.string().nullable(),
  createdAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** the delivery's end: every byte sent, cut short, or never recorded */
  delivered: z.enum(['COMPLETE', 'INCOMPLETE', 'UNKNOWN']),
  chainSeq: z.number().int().nullable(),
  rowHash: z.string().nullable(),
  /** where the code was read: typed in, or from the uploaded PDF's metadata */
  foundIn: z.enum(['CODE', 'PDF']),
});
export type CopyTrace = z.infer<typeof ZCopyTrace>;

// ---- evidence package (证据包): what an auditor takes away and checks offline

/**
 * An evidence package is one ZIP: `manifest.json`, `report.pdf` (the same facts for a reader)
 * and the rows as JSON. One file rather than a PDF beside a ZIP: the manifest names the sha256
 * of every other entry, the PDF included, so the report cannot be swapped without it showing,
 * and an auditor keeps or forwards a single file.
 *
 * What it shows, and to whom: the package is for auditors (types 3/7/8/9 only). Its rows are
 * complete — names, accounts and IP addresses included, whatever the 按钮与列权限 page hides or
 * masks on the log pages — because a row's chain hash covers its full content: a masked row
 * could no longer be checked against the chain, and proving who did what is the package's
 * purpose. The export itself is logged (a DOWNLOAD row of the access log, chained).
 *
 * Chained rows (their content exactly as hashed, its chain place, previous hash and hash):
 * access log (view, print, download, confirm, agreement, refusals) with copy codes, agreement
 * acceptances, grant application audit rows, notice events, countersign events, question
 * messages. Records that are state rather than acts (grants, applications, file versions with
 * sha256, notice recipients with the confirmed versions' sha256, countersign rounds and
 * signatures, questions) come with them, covered by the manifest's hashes only.
 */
export const EVIDENCE_PACKAGE_KIND = 'esm-evidence-package';
export const ZSubjectEvidenceRequestSchema = z
  .object({
    supplierCode: zText('供应商编码', 32),
    materialCode: zOptionalText(40),
    standardCode: zOptionalText(64),
  })
  .refine((v) => v.materialCode || v.standardCode, { message: '请输入物料编码或标准编号', path: ['materialCode'] });
export type SubjectEvidenceRequest = z.input<typeof ZSubjectEvidenceRequestSchema>;
export const ZNoticeEvidenceRequestSchema = z.object({ id: zId('变更通知') });
export type NoticeEvidenceRequest = z.input<typeof ZNoticeEvidenceRequestSchema>;
// ---- 操作审计: every act recorded by a workflow (notices, authorization applications, questions on
// drawings, countersigns), newest first — who did what to which record, in one list

export const OPERATION_KIND_LABELS = {
  NOTICE: '变更通知',
  APPLICATION: '授权申请',
  QUESTION: '图纸问题',
  COUNTERSIGN: '会签单',
} as const;
export type OperationKind = keyof typeof OPERATION_KIND_LABELS;
export const OPERATION_KINDS = Object.keys(OPERATION_KIND_LABELS) as [OperationKind, ...OperationKind[]];

export const OPERATION_SORT_FIELDS = ['createdAt'] as const;
export const ZOperationAuditRequestSchema = withDateRange(
  ZPageRequest(OPERATION_SORT_FIELDS, {
    kind: zOptionalEnum(OPERATION_KINDS, '业务类型只能是 NOTICE、APPLICATION、QUESTION 或 COUNTERSIGN'),
    /** Matches the operator's account or name. */
    operator: zOptionalText(64),
    /** Matches the record's number or what the act recorded (reason, comment). */
    keyword: zOptionalText(100),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type OperationAuditRequest = z.input<typeof ZOperationAuditRequestSchema>;

export const ZOperationAuditRow = z.object({
  /** `<kind>-<row id>`: the rows come from four tables. */
  key: z.string(),
  kind: z.enum(OPERATION_KINDS),
  action: z.string(),
  actionLabel: z.string(),
  /** The record acted on: a notice's, question's or countersign's number, an application's #id. */
  subject: z.string(),
  /** Governed (OPERATION_AUDIT_COLUMNS), as `ip` and `detail`. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  ip: z.string().nullable().optional(),
  /** What the act recorded besides itself (a reason, a comment); questions' message texts are not repeated here. */
  detail: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type OperationAuditRow = z.infer<typeof ZOperationAuditRow>;
export const OPERATION_AUDIT_COLUMNS = governedColumns(PAGES.operationAudit, [
  'userName',
  'userAccount',
  'ip',
  'detail',
]);

export const auditApi = {
  status: endpoint({
    path: 'haier/audit/status',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '审计链：上次校验结果',
    response: ZEnvelope(z.object({ last: ZAuditVerification.nullable() })),
  }),
  verify: endpoint({
    path: 'haier/audit/verify',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '立即校验审计链（结果记录为一次校验）',
    button: PAGES.auditVerify.buttons.verify,
    response: ZEnvelope(ZAuditVerification),
  }),
  dayHeads: endpoint({
    path: 'haier/audit/dayHeads',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '每日链头（默认最近 30 天）',
    body: ZDayHeadsRequestSchema,
    response: ZEnvelope(z.object({ dateFrom: z.string(), dateTo: z.string(), heads: z.array(ZDayHead) })),
  }),
  operations: endpoint({
    path: 'haier/audit/operations',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '操作审计分页（变更通知、授权申请、图纸问题、会签单的每一步操作）',
    body: ZOperationAuditRequestSchema,
    response: ZCappedPage(ZOperationAuditRow),
    columns: OPERATION_AUDIT_COLUMNS,
  }),
  traceCode: endpoint({
    path: 'haier/leakTrace/byCode',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '泄露追溯：按复制码（水印上的 XXXXX-XXXXX）查找该副本的访问记录',
    body: ZTraceCodeRequestSchema,
    response: ZEnvelope(ZCopyTrace),
  }),
  traceFile: endpoint({
    path: 'haier/leakTrace/byFile',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'multipart',
    summary: '泄露追溯：上传外部发现的 PDF，从其元数据读出复制码并查找访问记录',
    description: `multipart/form-data：文件部分 file（PDF，不超过 ${TRACE_FILE_MAX_BYTES / 1024 / 1024} MB）。`,
    response: ZEnvelope(ZCopyTrace),
  }),
  subjectEvidence: endpoint({
    path: 'haier/audit/evidencePackage',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    summary: '证据包：某供应商与某物料或图纸的全部记录（PDF 报告 + JSON 行及其审计链哈希，ZIP）',
    description:
      '可用 pnpm audit:verify --package FILE.zip 离线校验。行内容完整（不按列权限隐藏或脱敏：链哈希覆盖整行），因此仅限图纸管理员类型（3/7/8/9）。',
    body: ZSubjectEvidenceRequestSchema,
  }),
  noticeEvidence: endpoint({
    path: 'haier/audit/noticeEvidencePackage',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    summary: '证据包：某变更通知的发布、阅读、确认（含确认版本 SHA-256）、会签与问题记录（ZIP）',
    description: '可用 pnpm audit:verify --package FILE.zip 离线校验。',
    body: ZNoticeEvidenceRequestSchema,
  }),
} as const;
