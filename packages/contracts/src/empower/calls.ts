/** The empower calls, supplier side then manufacturer side. Call names are the legacy portal's where it has one. */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from '../codes.ts';
import { endpoint } from '../endpoint.ts';
import { ZCappedPage, ZEnvelope } from '../envelope.ts';
import { PAGES } from '../pages.ts';
import {
  APPLICATION_AUDIT_COLUMNS,
  APPLICATION_COLUMNS,
  SUPPLIER_AUDIT_COLUMNS,
  ZApplicationRow,
  ZApplyIdRequestSchema,
  ZApplyOptions,
  ZApplyPageRequestSchema,
  ZApproveRequestSchema,
  ZAuditRow,
  ZCreateApplyRequestSchema,
  ZDecisionResult,
  ZSupplierApplyPageRequestSchema,
  ZUpdateApplyRequestSchema,
  ZWithdrawApplyRequestSchema,
} from './applications.ts';
import { ZCensusPageRequestSchema, ZCensusRow, ZUnauthorizedRequestSchema, ZUnauthorizedTree } from './census.ts';
import {
  GRANT_COLUMNS,
  GRANT_HISTORY_COLUMNS,
  ZGrantPageRequestSchema,
  ZGrantRow,
  ZOverduePageRequestSchema,
  ZRevokeRequestSchema,
} from './grants.ts';
import { ACCESS_REPORT_COLUMNS, ZAccessReport, ZAccessReportRequestSchema } from './report.ts';
import { EMPOWER_APPROVER_TYPES, EMPOWER_READER_TYPES, ZEmpowerState, ZHasEmpowerRequestSchema } from './state.ts';

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
