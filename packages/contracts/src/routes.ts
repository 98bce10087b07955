/**
 * Every page route of spec §2 under the base path, with its Chinese title. The web router, the
 * menu seed and the breadcrumb all read these; a reader finds any page by its spec name here.
 */
import type { UserType } from './codes.ts';

export const BASE_PATH = '/esm';
export const API_BASE = '/esm-server/api';
export const LOGIN_PATH = '/esm/login';

export interface RouteDef {
  /** Full path under /esm. */
  path: string;
  /** Group segment ('' for top level). */
  group: string;
  /** The spec's page name (last path segment). */
  page: string;
  title: string;
  /** Pages of spec §2 that show a "back to previous level" button (and the notice detail pages, issue 9). */
  back?: boolean;
}

export const GROUP_TITLES: Record<string, string> = {
  supplier: '供应商专区',
  drawingManagement: '图纸管理',
  drawingAuthorization: '图纸授权',
  personManagement: '人员管理',
  system: '系统管理',
};

const r = (group: string, page: string, title: string, back?: boolean): RouteDef => ({
  path: group ? `${BASE_PATH}/${group}/${page}` : `${BASE_PATH}/${page}`,
  group,
  page,
  title,
  ...(back ? { back } : {}),
});

export const ROUTES: RouteDef[] = [
  r('', 'dashboard', '档案信息'),
  // supplier
  r('supplier', 'dashboardS', '企业标准档案'),
  r('supplier', 'countersignList', '会签单列表'),
  r('supplier', 'noticeList', '图纸变更通知'),
  r('supplier', 'noticeOfChangeOfDrawings', '图纸变更通知单', true),
  r('supplier', 'twoOrThreeLevelsBom', '二三级BOM'),
  r('supplier', 'twoOrThreeLevelsSupplier', '二三级供应商'),
  r('supplier', 'supplierDrawingEmpowerApply', '图纸授权申请'),
  r('supplier', 'drawingsAndArchivesInformationG', '图纸档案信息', true),
  r('supplier', 'dashboardSHistory', '企业标准档案历史'),
  r('supplier', 'documentIssue', '图纸问题'),
  // drawingManagement
  r('drawingManagement', 'drawingsAndArchivesInformation', '图纸档案信息', true),
  r('drawingManagement', 'countersignList', '会签单列表'),
  r('drawingManagement', 'drawingViewLog', '图纸查看日志'),
  r('drawingManagement', 'drawingConfirmationLog', '图纸确认日志'),
  r('drawingManagement', 'blueprintDownloadingLog', '蓝图下载日志'),
  r('drawingManagement', 'noticeOfChangeOfDrawingsHR', '图纸变更通知单', true),
  r('drawingManagement', 'drawingPrintlog', '图纸打印日志'),
  r('drawingManagement', 'confidentialityAgreement', '保密协议记录'),
  r('drawingManagement', 'archivalHistory', '档案历史'),
  r('drawingManagement', 'changeNoticeList', '变更通知列表'),
  r('drawingManagement', 'documentIssueH', '图纸问题回复'),
  // drawingAuthorization
  r('drawingAuthorization', 'noDrawingAndArchivesInformation', '未授权图纸档案信息', true),
  r('drawingAuthorization', 'drawingAuthorizedFile', '已授权图纸'),
  r('drawingAuthorization', 'drawingEmpowerApprove', '供应商授权申请审批'),
  r('drawingAuthorization', 'drawingAuthorizedFileHistory', '授权图纸历史'),
  r('drawingAuthorization', 'noDrawingMaterialCensus', '供应商统计'),
  // not in the legacy spec: the access report of issue 10 (who could see what, on whose approval)
  r('drawingAuthorization', 'drawingAccessReport', '授权访问报告'),
  // personManagement
  r('personManagement', 'problemType', 'SQE及产品线管理'),
  // system: not in the legacy spec; the visit log of the user_visit events (spec §4)
  r('system', 'visitLog', '访问日志'),
  // not in the legacy spec: the manufacturer's read view of the suppliers' 2–3 level BOMs and the where-used search (issue 13)
  r('drawingManagement', 'supplierBomTrace', '供应商BOM追溯'),
  // system: issue 14 — who revealed which mobile number; the button and column permissions (type 7)
  r('system', 'mobilePhoneLog', '手机号查看日志'),
  r('system', 'permission', '按钮与列权限'),
  // system: every sign-in, success or refusal (sign_in_log, issue 15)
  r('system', 'signInLog', '登录日志'),
  // not in the legacy spec: every user's own notifications (the header bell's 查看全部)
  r('', 'notifications', '我的通知'),
  // not in the legacy spec: the user's own e-mail and notification choices (the header's user name)
  r('', 'settings', '个人设置'),
  // not in the legacy spec: every notification mail, its state, tries and the server's answer
  r('system', 'notificationLog', '通知发送记录'),
];

export const routeByPath = new Map(ROUTES.map((x) => [x.path, x]));
export const path = (group: string, page: string) => (group ? `${BASE_PATH}/${group}/${page}` : `${BASE_PATH}/${page}`);

/** Each user type's landing page (spec §2). */
export const DEFAULT_PAGE: Record<UserType, string> = {
  2: path('supplier', 'dashboardS'),
  4: path('supplier', 'dashboardS'),
  3: path('', 'dashboard'),
  7: path('', 'dashboard'),
  8: path('', 'dashboard'),
  9: path('', 'dashboard'),
  5: path('drawingManagement', 'documentIssueH'),
  6: path('drawingAuthorization', 'drawingEmpowerApprove'),
};

/** Fixed breadcrumb titles of spec §2 (paths relative to /esm). */
export const FIXED_CRUMBS: Record<string, string> = {
  '/dashboard': '档案信息',
  '/permissionCenter/agent': '待办',
  '/permissionCenter/hisTask': '已办',
  '/quota/myApplication': '申请中',
  '/quota/myNotApproved': '申请中',
  '/quota/myCompleted': '已完成',
};

/** External links of spec §2 (served by the company site; the host is configurable). */
export const EXTERNAL_LINKS = {
  userAgreement: { href: '/registe?types=1', text: '用户协议' },
  privacyPolicy: { href: '/registe?types=2', text: '个人信息保护政策' },
  interactionNotes: { href: '/protocol?id=target12', text: '交互须知' },
  commitmentLetter: { href: '/protocol?id=target13', text: '承诺函' },
  conductCode: { href: '/protocol?id=target15', text: '商业行为准则' },
  serviceAgreement: { href: '/protocol?id=target40', text: '网站服务协议' },
  help: { href: '/help', text: '帮助中心' },
  companyLogin: { href: '/rem-login-new', text: '公司首页登录' },
} as const;
