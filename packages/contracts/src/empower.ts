/**
 * Drawing authorization (empower): a supplier sees a material's drawings only while it
 * supplies the material and holds a grant valid now (the rule itself lives in the api's empower
 * module). Grants come from applications: the supplier applies for materials it supplies and a
 * period, an approver (user type 6) decides — all or some materials, the period as asked or
 * shorter — and the approval creates the grants. Grants are never edited: revoking closes one,
 * renewing is a new application. Call names are the legacy portal's where it has one.
 */
import { canMove, type Transition } from './workflow.ts';
import { ACCESS_REPORT_PAGE } from './page-paths.ts';
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zDay, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { PAGES } from './pages.ts';

// ---- the grant state of a supplier on a material ---------------------------------------------

export const GRANT_STATE_LABELS = { VALID: '授权有效', EXPIRED: '授权已过期', NOT_YET: '授权未生效', NONE: '未授权' } as const;
export type GrantState = keyof typeof GRANT_STATE_LABELS;
export const GRANT_STATES = Object.keys(GRANT_STATE_LABELS) as [GrantState, ...GrantState[]];

export const ZHasEmpowerRequestSchema = z.object({ materialCode: zText('物料编码', 40, { verb: '缺少' }) });
export const ZEmpowerState = z.object({ empowered: z.boolean(), validFrom: z.string().nullable(), validUntil: z.string().nullable(), reason: z.string().nullable() });
export type EmpowerState = z.infer<typeof ZEmpowerState>;

// ---- who ---------------------------------------------------------------------------------------

/** Who decides applications (type 6, authorization approval). */
export const EMPOWER_APPROVER_TYPES = [6] as const;
/** Who reads the applications and their audit: the approver and the drawing admins. */
export const EMPOWER_READER_TYPES = [3, 6, 7, 8, 9] as const;
/** Defaults of the api's configuration (EMPOWER_MAX_PERIOD_DAYS, EMPOWER_EXPIRING_DAYS). */
export const EMPOWER_DEFAULTS = { maxPeriodDays: 365, expiringDays: 30 } as const;

// ---- applications: states and their moves ------------------------------------------------------

export const APPLICATION_STATUS_LABELS = { DRAFT: '草稿', SUBMITTED: '已提交', APPROVED: '已批准', REJECTED: '已驳回', WITHDRAWN: '已撤回' } as const;
export type ApplicationStatus = keyof typeof APPLICATION_STATUS_LABELS;
export const APPLICATION_STATUSES = Object.keys(APPLICATION_STATUS_LABELS) as [ApplicationStatus, ...ApplicationStatus[]];

/**
 * The state machine of an application: each move, the one state it leaves and the state it
 * reaches. The api moves state only as this table says (`UPDATE … WHERE status = from`); a move
 * from any other state is refused with 409.
 */
export const APPLICATION_TRANSITIONS = {
  SUBMIT: { from: ['DRAFT'], to: 'SUBMITTED', label: '提交' },
  WITHDRAW: { from: ['SUBMITTED'], to: 'WITHDRAWN', label: '撤回' },
  APPROVE: { from: ['SUBMITTED'], to: 'APPROVED', label: '批准' },
  REJECT: { from: ['SUBMITTED'], to: 'REJECTED', label: '驳回' },
} as const satisfies Record<string, Transition<ApplicationStatus>>;
export type ApplicationMove = keyof typeof APPLICATION_TRANSITIONS;

/** Whether `move` may leave `status` (the shared rule of workflow.ts over this table). */
export const canMoveApplication = (status: ApplicationStatus, move: ApplicationMove): boolean => canMove(APPLICATION_TRANSITIONS, move, status);
/** The supplier edits and deletes only drafts. */
export const isEditable = (status: ApplicationStatus): boolean => status === 'DRAFT';

/** What an audit row records: the moves, and the draft's creation and edits. */
export const AUDIT_ACTION_LABELS = { CREATE: '创建草稿', UPDATE: '修改草稿', SUBMIT: '提交', WITHDRAW: '撤回', APPROVE: '批准', REJECT: '驳回' } as const;
export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

// ---- rows --------------------------------------------------------------------------------------

export const ZApplicationMaterial = z.object({
  code: z.string(),
  name: z.string(),
  /** Set by the decision: approved (a grant was made) or left out; null before. */
  approved: z.boolean().nullable(),
  /** The supplier's grant on the material now, by the grant rule. */
  grantState: z.enum(GRANT_STATES),
  grantValidUntil: z.string().nullable(),
});
export type ApplicationMaterial = z.infer<typeof ZApplicationMaterial>;

export const ZApplicationRow = z.object({
  id: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  /** The period asked for, days YYYY-MM-DD in UTC+8, both included. */
  validFrom: z.string(),
  validUntil: z.string(),
  reason: z.string(),
  /** Governed with 审批记录·操作人 / 操作人账号 on the approvers' page (its CREATE and SUBMIT entries name the applicant). */
  applicantAccount: z.string().optional(),
  applicantName: z.string().optional(),
  renewsGrantId: z.number().int().nullable(),
  submittedAt: z.string().nullable(),
  /** The period granted (days, both included): never longer than asked. */
  approvedFrom: z.string().nullable(),
  approvedUntil: z.string().nullable(),
  deciderAccount: z.string().nullable().optional(),
  /** Governed (APPLICATION_COLUMNS): absent when hidden for the caller, masked when masked. */
  deciderName: z.string().nullable().optional(),
  decidedAt: z.string().nullable(),
  decisionComment: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  materials: z.array(ZApplicationMaterial),
});
export type ApplicationRow = z.infer<typeof ZApplicationRow>;
/** 图纸授权审批: the page of the application list. */
export const EMPOWER_APPROVE_PAGE = PAGES.drawingEmpowerApprove.path;
/** The internal application rows' governed columns. */
export const APPLICATION_COLUMNS = governedColumns(PAGES.drawingEmpowerApprove, ['deciderName', 'decisionComment'], undefined, { deciderName: ['deciderAccount'] }, {
  // the audit trail's people are the applicant and the decider the row names
  userName: ['applicantName', 'deciderName'],
  userAccount: ['applicantAccount', 'deciderAccount'],
});

export const ZAuditRow = z.object({
  id: z.number().int(),
  action: z.enum(AUDIT_ACTIONS),
  fromStatus: z.enum(APPLICATION_STATUSES).nullable(),
  toStatus: z.enum(APPLICATION_STATUSES),
  /** Governed (APPLICATION_AUDIT_COLUMNS, SUPPLIER_AUDIT_COLUMNS): absent when hidden for the caller, masked when masked. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  userType: z.number().int(),
  ip: z.string().nullable().optional(),
  /** A decision's comment is governed with 审批意见 on the approvers' page (APPLICATION_AUDIT_COLUMNS). */
  comment: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type AuditRow = z.infer<typeof ZAuditRow>;
/** Who did what from where in an application's 审批记录, as the approvers' page shows it. */
export const APPLICATION_AUDIT_COLUMNS = governedColumns(PAGES.drawingEmpowerApprove, ['userName', 'userAccount', 'ip'], undefined, undefined, {
  // a decision's entry names the decider (审批人) and repeats its comment (审批意见)
  deciderName: ['[action=APPROVE|REJECT].userName', '[action=APPROVE|REJECT].userAccount'],
  decisionComment: ['[action=APPROVE|REJECT].comment'],
});
/** The same on the supplier's own 图纸授权申请 page. */
export const SUPPLIER_APPLY_PAGE = PAGES.supplierDrawingEmpowerApply.path;
export const SUPPLIER_AUDIT_COLUMNS = governedColumns(PAGES.supplierDrawingEmpowerApply, ['userName', 'userAccount', 'ip']);

/** A grant as the internal pages show it. */
export const GRANT_ROW_STATE_LABELS = { VALID: '有效', NOT_YET: '未生效', EXPIRED: '已过期', REVOKED: '已撤销' } as const;
export type GrantRowState = keyof typeof GRANT_ROW_STATE_LABELS;
export const GRANT_ROW_STATES = Object.keys(GRANT_ROW_STATE_LABELS) as [GrantRowState, ...GrantRowState[]];

export const ZGrantRow = z.object({
  id: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  productLineName: z.string(),
  validFrom: z.string(),
  /** The instant it ends (exclusive). */
  validUntil: z.string(),
  state: z.enum(GRANT_ROW_STATES),
  /** Valid now and ending within the configured number of days. */
  expiringSoon: z.boolean(),
  /** A later grant (not revoked) on the same supplier and material ends after this one. */
  renewed: z.boolean(),
  /** The supplier supplies the material now (a grant alone opens nothing). */
  suppliesNow: z.boolean(),
  /** Effective drawings of the material. */
  drawingCount: z.number().int(),
  imported: z.boolean(),
  applicationId: z.number().int().nullable(),
  approverAccount: z.string().nullable().optional(),
  /** Governed (GRANT_COLUMNS / GRANT_HISTORY_COLUMNS): absent when hidden for the caller, masked when masked. */
  approverName: z.string().nullable().optional(),
  approvedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedByAccount: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type GrantRow = z.infer<typeof ZGrantRow>;
/** 授权中的图纸 and 授权历史: the pages of the grant lists. */
export const GRANT_PAGE = PAGES.drawingAuthorizedFile.path;
export const GRANT_HISTORY_PAGE = PAGES.drawingAuthorizedFileHistory.path;
/** The grant rows' governed columns, per page. */
export const GRANT_COLUMNS = governedColumns(PAGES.drawingAuthorizedFile, ['approverName', 'revokeReason'], undefined, { approverName: ['approverAccount'] });
export const GRANT_HISTORY_COLUMNS = governedColumns(PAGES.drawingAuthorizedFileHistory, ['approverName', 'revokeReason'], undefined, { approverName: ['approverAccount'] });

// ---- the supplier's application form ------------------------------------------------------------

/** A material the supplier supplies, as the application form's picker shows it. */
export const ZApplyMaterial = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string().nullable(),
  productLineName: z.string(),
  grantState: z.enum(GRANT_STATES),
  /** The grant that decides the state (the valid one, else the next, else the last). */
  grantId: z.number().int().nullable(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  expiringSoon: z.boolean(),
  /** A submitted application of this supplier on this material, awaiting a decision. */
  pendingApplicationId: z.number().int().nullable(),
});
export type ApplyMaterial = z.infer<typeof ZApplyMaterial>;

export const ZApplyOptions = z.object({
  /** Today in UTC+8 (the earliest day an application may start). */
  today: z.string(),
  maxPeriodDays: z.number().int(),
  expiringDays: z.number().int(),
  materials: z.array(ZApplyMaterial),
});
export type ApplyOptions = z.infer<typeof ZApplyOptions>;

const zMaterialCodes = z
  .array(zText('物料编码', 40, { verb: '请选择' }), { error: '请选择物料' })
  .min(1, '请选择物料')
  .max(50, '一次最多申请 50 个物料');

/** An optional id (blank counts as absent). */
const zOptionalId = (label: string) => z.preprocess((v) => (v === '' || v === null ? undefined : v), zId(label).optional());

const applyFields = {
  materialCodes: zMaterialCodes,
  validFrom: zDay('开始日期'),
  validUntil: zDay('截止日期'),
  reason: zText('申请理由', 500, { verb: '请填写' }),
  /** 续期: the grant this application renews. */
  renewsGrantId: zOptionalId('续期的授权编号'),
};
const periodInOrder = <T extends { validFrom: string; validUntil: string }>(v: T) => v.validFrom <= v.validUntil;
const PERIOD_ORDER = { message: '截止日期不能早于开始日期', path: ['validUntil'] };

export const ZCreateApplyRequestSchema = z.object(applyFields).refine(periodInOrder, PERIOD_ORDER);
export type CreateApplyRequest = z.input<typeof ZCreateApplyRequestSchema>;
export const ZUpdateApplyRequestSchema = z.object({ id: zId('申请编号'), ...applyFields }).refine(periodInOrder, PERIOD_ORDER);
export type UpdateApplyRequest = z.input<typeof ZUpdateApplyRequestSchema>;
export const ZApplyIdRequestSchema = z.object({ id: zId('申请编号') });
export const ZWithdrawApplyRequestSchema = z.object({ id: zId('申请编号'), comment: zOptionalText(500) });

// ---- lists ---------------------------------------------------------------------------------------

export const APPLY_SORT_FIELDS = ['createdAt', 'submittedAt', 'validFrom', 'validUntil', 'status', 'supplierCode', 'decidedAt'] as const;
const applyFilters = {
  status: zOptionalEnum(APPLICATION_STATUSES, '状态只能是 DRAFT、SUBMITTED、APPROVED、REJECTED 或 WITHDRAWN'),
  /** Applications that include this material (exact code). */
  materialCode: zOptionalText(40),
  /** Created between these days (UTC+8). */
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
};
export const ZSupplierApplyPageRequestSchema = withDateRange(ZPageRequest(APPLY_SORT_FIELDS, applyFilters));
export const ZApplyPageRequestSchema = withDateRange(ZPageRequest(APPLY_SORT_FIELDS, { ...applyFilters, supplierCode: zOptionalText(32) }));
export type ApplyPageRequest = z.input<typeof ZApplyPageRequestSchema>;

// ---- the decision ----------------------------------------------------------------------------------

export const DECISIONS = ['APPROVE', 'REJECT'] as const;
export type Decision = (typeof DECISIONS)[number];

/**
 * approveApplyEmpower: decides one application or several. Only one may be approved in part
 * (`materialCodes`) or for a shorter period (`validFrom` / `validUntil`, days within the period
 * asked for); several are approved as asked, or rejected with one reason.
 */
export const ZApproveRequestSchema = z
  .object({
    ids: z.array(zId('申请编号'), { error: '请选择申请' }).min(1, '请选择申请').max(50, '一次最多审批 50 个申请'),
    decision: z.enum(DECISIONS, { error: '请选择审批结果' }),
    materialCodes: z.array(zText('物料编码', 40, { verb: '请选择' }), { error: '请选择批准的物料' }).min(1, '至少批准一个物料').max(50).optional(),
    validFrom: zOptionalDate,
    validUntil: zOptionalDate,
    /** The reason of a rejection (required), or a remark on an approval. */
    comment: zOptionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.decision === 'REJECT' && !v.comment) ctx.addIssue({ code: 'custom', message: '请填写驳回原因', path: ['comment'] });
    const partial = v.materialCodes !== undefined || v.validFrom !== undefined || v.validUntil !== undefined;
    if (partial && v.ids.length > 1) ctx.addIssue({ code: 'custom', message: '部分批准或调整期限时，一次只能审批一个申请', path: ['ids'] });
    if (v.validFrom && v.validUntil && v.validFrom > v.validUntil) ctx.addIssue({ code: 'custom', message: '截止日期不能早于开始日期', path: ['validUntil'] });
  });
export type ApproveRequest = z.input<typeof ZApproveRequestSchema>;
export const ZDecisionResult = z.object({ decided: z.number().int(), grants: z.number().int(), applications: z.array(ZApplicationRow) });
export type DecisionResult = z.infer<typeof ZDecisionResult>;

// ---- grants --------------------------------------------------------------------------------------------

export const GRANT_SORT_FIELDS = ['validUntil', 'validFrom', 'supplierCode', 'materialCode', 'approvedAt', 'revokedAt'] as const;
export const GRANT_SOURCES = ['APPLICATION', 'IMPORTED'] as const;
export const GRANT_SOURCE_LABELS = { APPLICATION: '申请批准', IMPORTED: '历史导入' } as const;
const grantFilters = {
  supplierCode: zOptionalText(32),
  materialCode: zOptionalText(40),
  source: zOptionalEnum(GRANT_SOURCES, '来源只能是 APPLICATION 或 IMPORTED'),
};
/** Grants in force now or starting later (findEmpowerPage). */
export const ZGrantPageRequestSchema = ZPageRequest(GRANT_SORT_FIELDS, {
  ...grantFilters,
  state: zOptionalEnum(['VALID', 'NOT_YET'] as const, '状态只能是 VALID 或 NOT_YET'),
  /** Only those ending within the configured number of days. */
  expiringOnly: z.preprocess((v) => (v === '' || v === null ? undefined : v === 'true' ? true : v === 'false' ? false : v), z.boolean({ error: '即将到期只能是 true 或 false' }).optional()),
});
export type GrantPageRequest = z.input<typeof ZGrantPageRequestSchema>;

export const OVERDUE_KINDS = ['EXPIRED', 'REVOKED', 'EXPIRING'] as const;
export type OverdueKind = (typeof OVERDUE_KINDS)[number];
export const OVERDUE_KIND_LABELS: Record<OverdueKind, string> = { EXPIRED: '已过期', REVOKED: '已撤销', EXPIRING: '即将到期' };
/** Expired, revoked and expiring grants (findEmpowerOverduePage); the days are of the end: expiry or revocation. */
export const ZOverduePageRequestSchema = withDateRange(
  ZPageRequest(GRANT_SORT_FIELDS, { ...grantFilters, kind: zOptionalEnum(OVERDUE_KINDS, '类型只能是 EXPIRED、REVOKED 或 EXPIRING'), dateFrom: zOptionalDate, dateTo: zOptionalDate }),
);
export type OverduePageRequest = z.input<typeof ZOverduePageRequestSchema>;

export const ZRevokeRequestSchema = z.object({ id: zId('授权编号'), reason: zText('撤销原因', 200, { verb: '请填写' }) });

// ---- census ----------------------------------------------------------------------------------------------

export const ZCensusRow = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  /** Materials it supplies. */
  supplied: z.number().int(),
  /** … with a grant valid now. */
  valid: z.number().int(),
  /** … valid now but ending within the configured days, no later grant covering after. */
  expiring: z.number().int(),
  /** … whose last grant has expired. */
  expired: z.number().int(),
  /** … without a valid grant (supplied − valid). */
  unauthorized: z.number().int(),
  /** Its submitted applications awaiting a decision. */
  pending: z.number().int(),
  /** Effective drawings it may open now. */
  viewable: z.number().int(),
});
export type CensusRow = z.infer<typeof ZCensusRow>;
export const CENSUS_SORT_FIELDS = ['supplierCode', 'supplierName', 'supplied', 'valid', 'expiring', 'expired', 'unauthorized', 'pending', 'viewable'] as const;
export const ZCensusPageRequestSchema = ZPageRequest(CENSUS_SORT_FIELDS, { keyword: zOptionalText(100) });
export type CensusPageRequest = z.input<typeof ZCensusPageRequestSchema>;

/** One supplier's materials without a valid grant, and their drawings (noDrawingAndArchivesInformation). */
export const ZUnauthorizedRequestSchema = z.object({ supplierCode: zText('供应商', 32, { verb: '请选择' }) });
export const ZUnauthorizedFile = z.object({
  id: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  viewable: z.boolean(),
  effectiveDate: z.string(),
});
export const ZUnauthorizedMaterial = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string().nullable(),
  grantState: z.enum(GRANT_STATES),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  pendingApplicationId: z.number().int().nullable(),
  files: z.array(ZUnauthorizedFile),
});
export type UnauthorizedMaterial = z.infer<typeof ZUnauthorizedMaterial>;
export const ZUnauthorizedTree = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  supplied: z.number().int(),
  productLines: z.array(z.object({ code: z.string(), name: z.string(), materials: z.array(ZUnauthorizedMaterial) })),
});
export type UnauthorizedTree = z.infer<typeof ZUnauthorizedTree>;

// ---- the access report -------------------------------------------------------------------------------------

/**
 * For a material or a drawing (standard code, every version) and a day: which suppliers could see
 * it that day, under which grant, approved by whom and when; and what they viewed, downloaded and
 * printed under those grants (the access log).
 */
export const ZAccessReportRequestSchema = z
  .object({
    materialCode: zOptionalText(40),
    standardCode: zOptionalText(64),
    date: zDay('日期'),
  })
  .refine((v) => v.materialCode || v.standardCode, { message: '请输入物料编码或标准编号', path: ['materialCode'] });
export type AccessReportRequest = z.input<typeof ZAccessReportRequestSchema>;

export const ZReportGrant = z.object({
  grantId: z.number().int(),
  supplierCode: z.string(),
  supplierName: z.string(),
  materialCode: z.string(),
  materialName: z.string(),
  suppliesNow: z.boolean(),
  validFrom: z.string(),
  validUntil: z.string(),
  revokedAt: z.string().nullable(),
  revokedByName: z.string().nullable(),
  revokeReason: z.string().nullable(),
  imported: z.boolean(),
  applicationId: z.number().int().nullable(),
  applicantName: z.string().nullable(),
  approverAccount: z.string().nullable(),
  approverName: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /** OK rows of the access log by this supplier on the subject, while this grant was in force. */
  views: z.number().int(),
  downloads: z.number().int(),
  prints: z.number().int(),
  lastAccessAt: z.string().nullable(),
});
export type ReportGrant = z.infer<typeof ZReportGrant>;

export const REPORT_EVENT_ACTIONS = ['VIEW', 'DOWNLOAD', 'PRINT'] as const;
export const ZReportEvent = z.object({
  id: z.number().int(),
  grantId: z.number().int(),
  action: z.enum(REPORT_EVENT_ACTIONS),
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  supplierCode: z.string(),
  supplierName: z.string().nullable(),
  standardCode: z.string().nullable(),
  fileName: z.string().nullable(),
  version: z.string().nullable(),
  materialCode: z.string().nullable(),
  /** Governed (ACCESS_REPORT_COLUMNS `events.*`, as userAccount and userName): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type ReportEvent = z.infer<typeof ZReportEvent>;
/** The page shows at most this many events (the export has them all). */
export const REPORT_EVENTS_SHOWN = 200;

export const ZAccessReport = z.object({
  date: z.string(),
  standardCode: z.string().nullable(),
  materials: z.array(z.object({ code: z.string(), name: z.string() })),
  /** The drawing's versions (a standard code's), with when each was in effect. */
  versions: z.array(z.object({ id: z.number().int(), version: z.string(), status: z.string(), effectiveDate: z.string(), obsoletedAt: z.string().nullable() })),
  grants: z.array(ZReportGrant),
  events: z.array(ZReportEvent),
  eventsTotal: z.number().int(),
});
export type AccessReport = z.infer<typeof ZAccessReport>;
/** Who opened the drawing and from where in the report's 访问记录: on the page, in the answer and in its Excel export. */
export const ACCESS_REPORT_COLUMNS = governedColumns(PAGES.drawingAccessReport, ['events.userName', 'events.userAccount', 'events.ip']);

// ---- calls -------------------------------------------------------------------------------------------------

const tag = 'empower';
const tagSupplier = 'empower (supplier)';

export const empowerApi = {
  // supplier side: every call runs inside the caller's own supplier's scope
  hasEmpower: endpoint({
    path: 'supplier/standardFile/hasEmpower',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商对某物料是否有有效授权',
    body: ZHasEmpowerRequestSchema,
    response: ZEnvelope(ZEmpowerState),
  }),
  supplierApplications: endpoint({
    path: 'supplier/drawingEmpowerApply/findEmpowerApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商的授权申请分页',
    body: ZSupplierApplyPageRequestSchema,
    response: ZCappedPage(ZApplicationRow),
  }),
  applyOptions: endpoint({
    path: 'supplier/drawingEmpowerApply/findApplyMaterials',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '申请表的选项：本供应商供货的物料及其授权、期限上限、即将到期的天数',
    response: ZEnvelope(ZApplyOptions),
  }),
  createApply: endpoint({
    path: 'supplier/drawingEmpowerApply/createApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '新建授权申请（草稿）',
    body: ZCreateApplyRequestSchema,
    response: ZEnvelope(ZApplicationRow),
  }),
  updateApply: endpoint({
    path: 'supplier/drawingEmpowerApply/updateApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '修改草稿',
    body: ZUpdateApplyRequestSchema,
    response: ZEnvelope(ZApplicationRow),
  }),
  deleteApply: endpoint({
    path: 'supplier/drawingEmpowerApply/deleteApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '删除草稿',
    body: ZApplyIdRequestSchema,
    response: ZEnvelope(z.object({ id: z.number().int() })),
  }),
  submitApply: endpoint({
    path: 'supplier/drawingEmpowerApply/submitApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '提交草稿待审批（须已签署当前保密协议）',
    body: ZApplyIdRequestSchema,
    response: ZEnvelope(ZApplicationRow),
  }),
  withdrawApply: endpoint({
    path: 'supplier/drawingEmpowerApply/withdrawApply',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '撤回已提交、尚未审批的申请',
    body: ZWithdrawApplyRequestSchema,
    response: ZEnvelope(ZApplicationRow),
  }),
  supplierAudit: endpoint({
    path: 'supplier/drawingEmpowerApply/searchAudit',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商某申请的审批记录',
    body: ZApplyIdRequestSchema,
    response: ZEnvelope(z.array(ZAuditRow)),
    columns: SUPPLIER_AUDIT_COLUMNS,
  }),

  // manufacturer side
  applications: endpoint({
    path: 'haier/drawingEmpowerApply/findEmpowerApply',
    access: EMPOWER_READER_TYPES,
    tag,
    summary: '授权申请分页（不含草稿；默认待审批在前）',
    body: ZApplyPageRequestSchema,
    response: ZCappedPage(ZApplicationRow),
    columns: APPLICATION_COLUMNS,
  }),
  approve: endpoint({
    path: 'haier/drawingEmpowerApply/approveApplyEmpower',
    access: EMPOWER_APPROVER_TYPES,
    tag,
    summary: '审批授权申请：批准（全部或部分物料，可缩短期限）或驳回',
    button: PAGES.drawingEmpowerApprove.buttons.approve,
    description: '批准在同一事务中生成授权；已审批的申请再次审批返回 409。多个申请一起审批时全部成功或全部不变。',
    body: ZApproveRequestSchema,
    response: ZEnvelope(ZDecisionResult),
  }),
  audit: endpoint({
    path: 'haier/drawingEmpowerApply/searchAudit',
    access: EMPOWER_READER_TYPES,
    tag,
    summary: '某申请的审批记录',
    body: ZApplyIdRequestSchema,
    response: ZEnvelope(z.array(ZAuditRow)),
    columns: APPLICATION_AUDIT_COLUMNS,
  }),
  grants: endpoint({
    path: 'haier/drawingEmpowerArchives/findEmpowerPage',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '授权中的图纸：有效及尚未生效的授权',
    body: ZGrantPageRequestSchema,
    response: ZCappedPage(ZGrantRow),
    columns: GRANT_COLUMNS,
  }),
  revoke: endpoint({
    path: 'haier/drawingEmpowerArchives/revokeEmpower',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '撤销一项授权（立即生效，须填写原因）',
    button: PAGES.drawingAuthorizedFile.buttons.revoke,
    body: ZRevokeRequestSchema,
    response: ZEnvelope(ZGrantRow),
    columns: GRANT_COLUMNS,
  }),
  overdue: endpoint({
    path: 'haier/drawingEmpowerOverdue/findEmpowerOverduePage',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '授权历史：已过期、已撤销及即将到期的授权',
    body: ZOverduePageRequestSchema,
    response: ZCappedPage(ZGrantRow),
    columns: GRANT_HISTORY_COLUMNS,
  }),
  census: endpoint({
    path: 'haier/drawingEmpowerCensus/findCensusPage',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '供应商统计：供货物料、有效/即将到期/已过期授权、待审批申请、可查看图纸',
    body: ZCensusPageRequestSchema,
    response: ZCappedPage(ZCensusRow),
  }),
  censusExcel: endpoint({
    path: 'haier/drawingEmpowerCensus/exportCensus',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    summary: '导出供应商统计（.xlsx，与列表相同的筛选和排序）',
    button: PAGES.noDrawingMaterialCensus.buttons.export,
    body: ZCensusPageRequestSchema,
  }),
  unauthorized: endpoint({
    path: 'haier/drawingEmpowerCensus/findUnauthorizedMaterials',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '某供应商没有有效授权的供货物料及其图纸（按产品线成树）',
    body: ZUnauthorizedRequestSchema,
    response: ZEnvelope(ZUnauthorizedTree),
  }),
  report: endpoint({
    path: 'haier/drawingEmpowerReport/findAccessReport',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '授权访问报告：某日哪些供应商可查看某物料或图纸、依据哪项授权、谁批准，以及实际查看/下载/打印记录',
    body: ZAccessReportRequestSchema,
    response: ZEnvelope(ZAccessReport),
    columns: ACCESS_REPORT_COLUMNS,
  }),
  reportExcel: endpoint({
    path: 'haier/drawingEmpowerReport/exportAccessReport',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    summary: '导出授权访问报告（.xlsx：授权、访问记录两个工作表）',
    button: PAGES.drawingAccessReport.buttons.export,
    body: ZAccessReportRequestSchema,
  }),
} as const;

/** The access report's page (not in the legacy portal, under drawingAuthorization). */
export { ACCESS_REPORT_PAGE };
