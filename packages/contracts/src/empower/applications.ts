/** A supplier's application for materials and a period: its states and moves, rows, form, lists and the decision. */
import { canMove, type Transition } from '../workflow.ts';
import { z } from 'zod';
import { governedColumns } from '../endpoint.ts';
import { zDay, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from '../fields.ts';
import { ZPageRequest } from '../paging.ts';
import { PAGES } from '../pages.ts';
import { GRANT_STATES } from './state.ts';

// ---- applications: states and their moves ------------------------------------------------------

export const APPLICATION_STATUS_LABELS = {
  DRAFT: '草稿',
  SUBMITTED: '已提交',
  APPROVED: '已批准',
  REJECTED: '已驳回',
  WITHDRAWN: '已撤回',
} as const;
export type ApplicationStatus = keyof typeof APPLICATION_STATUS_LABELS;
export const APPLICATION_STATUSES = Object.keys(APPLICATION_STATUS_LABELS) as [
  ApplicationStatus,
  ...ApplicationStatus[],
];

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
export const canMoveApplication = (status: ApplicationStatus, move: ApplicationMove): boolean =>
  canMove(APPLICATION_TRANSITIONS, move, status);
/** The supplier edits and deletes only drafts. */
export const isEditable = (status: ApplicationStatus): boolean => status === 'DRAFT';

/** What an audit row records: the moves, and the draft's creation and edits. */
export const AUDIT_ACTION_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '修改草稿',
  SUBMIT: '提交',
  WITHDRAW: '撤回',
  APPROVE: '批准',
  REJECT: '驳回',
} as const;
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
export const APPLICATION_COLUMNS = governedColumns(
  PAGES.drawingEmpowerApprove,
  ['deciderName', 'decisionComment'],
  undefined,
  { deciderName: ['deciderAccount'] },
  {
    // the audit trail's people are the applicant and the decider the row names
    userName: ['applicantName', 'deciderName'],
    userAccount: ['applicantAccount', 'deciderAccount'],
  },
);

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
export const APPLICATION_AUDIT_COLUMNS = governedColumns(
  PAGES.drawingEmpowerApprove,
  ['userName', 'userAccount', 'ip'],
  undefined,
  undefined,
  {
    // a decision's entry names the decider (审批人) and repeats its comment (审批意见)
    deciderName: ['[action=APPROVE|REJECT].userName', '[action=APPROVE|REJECT].userAccount'],
    decisionComment: ['[action=APPROVE|REJECT].comment'],
  },
);
/** The same on the supplier's own 图纸授权申请 page. */
export const SUPPLIER_APPLY_PAGE = PAGES.supplierDrawingEmpowerApply.path;
export const SUPPLIER_AUDIT_COLUMNS = governedColumns(PAGES.supplierDrawingEmpowerApply, [
  'userName',
  'userAccount',
  'ip',
]);

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
const zOptionalId = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), zId(label).optional());

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
export const ZUpdateApplyRequestSchema = z
  .object({ id: zId('申请编号'), ...applyFields })
  .refine(periodInOrder, PERIOD_ORDER);
export type UpdateApplyRequest = z.input<typeof ZUpdateApplyRequestSchema>;
export const ZApplyIdRequestSchema = z.object({ id: zId('申请编号') });
export const ZWithdrawApplyRequestSchema = z.object({ id: zId('申请编号'), comment: zOptionalText(500) });

// ---- lists ---------------------------------------------------------------------------------------

export const APPLY_SORT_FIELDS = [
  'createdAt',
  'submittedAt',
  'validFrom',
  'validUntil',
  'status',
  'supplierCode',
  'decidedAt',
] as const;
const applyFilters = {
  status: zOptionalEnum(APPLICATION_STATUSES, '状态只能是 DRAFT、SUBMITTED、APPROVED、REJECTED 或 WITHDRAWN'),
  /** Applications that include this material (exact code). */
  materialCode: zOptionalText(40),
  /** Created between these days (UTC+8). */
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
};
export const ZSupplierApplyPageRequestSchema = withDateRange(ZPageRequest(APPLY_SORT_FIELDS, applyFilters));
export const ZApplyPageRequestSchema = withDateRange(
  ZPageRequest(APPLY_SORT_FIELDS, { ...applyFilters, supplierCode: zOptionalText(32) }),
);
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
    materialCodes: z
      .array(zText('物料编码', 40, { verb: '请选择' }), { error: '请选择批准的物料' })
      .min(1, '至少批准一个物料')
      .max(50)
      .optional(),
    validFrom: zOptionalDate,
    validUntil: zOptionalDate,
    /** The reason of a rejection (required), or a remark on an approval. */
    comment: zOptionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.decision === 'REJECT' && !v.comment)
      ctx.addIssue({ code: 'custom', message: '请填写驳回原因', path: ['comment'] });
    const partial = v.materialCodes !== undefined || v.validFrom !== undefined || v.validUntil !== undefined;
    if (partial && v.ids.length > 1)
      ctx.addIssue({ code: 'custom', message: '部分批准或调整期限时，一次只能审批一个申请', path: ['ids'] });
    if (v.validFrom && v.validUntil && v.validFrom > v.validUntil)
      ctx.addIssue({ code: 'custom', message: '截止日期不能早于开始日期', path: ['validUntil'] });
  });
export type ApproveRequest = z.input<typeof ZApproveRequestSchema>;
export const ZDecisionResult = z.object({
  decided: z.number().int(),
  grants: z.number().int(),
  applications: z.array(ZApplicationRow),
});
export type DecisionResult = z.infer<typeof ZDecisionResult>;
