/**
 * Every page of the portal, declared once: its path, title, menu row (id, parent, icon, order,
 * user types), layout flags, its buttons and its governed columns. The menu seed (apps/api
 * db/menu-data.ts), the web router (which only maps a page key to its component), the breadcrumb,
 * the `*_PAGE` constants and the button and column permissions all read this: a call names its
 * button as `PAGES.x.buttons.export`, a row schema its governed columns as
 * `governedColumns(PAGES.x, ['ip'])`, and the server seeds their permission rows from those. Zod-free:
 * the router loads it on the login page's first load.
 *
 * Adding a page: one entry in PAGES (its key is its name everywhere: `PAGES.signInLog`) and its
 * component, `apps/web/src/features/<domain>/pages/<key>.tsx`, found by that file name. The menu
 * row and its grants follow at the next start.
 */
import { BASE_PATH } from './routes.ts';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES, type UserType } from './codes.ts';

/** A menu group: a top-level entry whose route (`/esm/<key>`) shows the group's default page. */
export interface GroupDecl {
  /** menu_entry.id */
  id: number;
  title: string;
  icon: string;
  types: readonly UserType[];
  /** The side menu keeps this group open. */
  open?: true;
}

const ADMIN = DRAWING_ADMIN_TYPES;
const SUPPLIER = SUPPLIER_TYPES;
const EVERYONE = [...SUPPLIER_TYPES, ...DRAWING_ADMIN_TYPES, 5, 6] as const satisfies readonly UserType[];

/** The menu groups, keyed by their path segment, in the 按钮与列权限 page's order. */
export const GROUPS = {
  supplier: { id: 30, title: '供应商专区', icon: 'ShopOutlined', types: SUPPLIER },
  drawingManagement: { id: 1, title: '图纸管理', icon: 'FolderOpenOutlined', types: [...ADMIN, 5], open: true },
  drawingAuthorization: { id: 14, title: '图纸授权', icon: 'KeyOutlined', types: [...ADMIN, 6], open: true },
  personManagement: { id: 50, title: '人员管理', icon: 'UserOutlined', types: [7] },
  system: { id: 60, title: '系统管理', icon: 'SettingOutlined', types: ADMIN },
} as const satisfies Record<string, GroupDecl>;
export type GroupKey = keyof typeof GROUPS;

/** A button of a page: `page` is its route under /esm (e.g. `/esm/dashboard`), `code` its action (`export`). */
export interface ButtonDecl {
  readonly page: string;
  readonly code: string;
  /** What the user sees on the button (and the 403 names). */
  readonly label: string;
}

type Labels = Readonly<Record<string, string>>;

/** One page as declared below; its key in PAGES is its last path segment unless `segment` says otherwise. */
interface PageDecl {
  /** The menu group ('' for a top-level page). */
  group: GroupKey | '';
  title: string;
  /** menu_entry.id */
  menuId: number;
  /** An @ant-design/icons name; null for pages outside the side menu. */
  icon: string | null;
  /** The user types whose menu holds it (and who may open it). */
  types: readonly UserType[];
  /** The last path segment, when two pages share one (the key must be unique). */
  segment?: string;
  /** Reached from another page, not from the side menu (menu parent -1). */
  hidden?: true;
  /** In its group's menu, but the side menu skips it (the drawing tree pages). */
  skipInSideMenu?: true;
  /** The layout shows 返回上一级. */
  back?: true;
  /** No component yet: the router shows the group's default page ("即将上线"). */
  groupDefault?: true;
  /**
   * The page's buttons, code → label: each is performed by one call (its `button`), which the
   * server refuses to a type the button is not granted to (default: the call's access).
   */
  buttons?: Labels;
  /**
   * The page's governed columns, row field → header (a field may be a path into a nested list,
   * `events.ip`): hidden or masked per user type on the 按钮与列权限 page (default: visible).
   */
  columns?: Labels;
}

/** A page with everything derived from its declaration. */
export interface RouteDef<B extends string = string, C extends string = string> {
  key: string;
  /** Full path under /esm. */
  path: string;
  /** Group segment ('' for top level). */
  group: GroupKey | '';
  /** The last path segment (the menu row's `name`). */
  page: string;
  title: string;
  back?: boolean;
  groupDefault?: boolean;
  menu: {
    id: number;
    /** The group's menu id, null at the top level, -1 for a page reached from another page. */
    parent: number | null;
    icon: string | null;
    types: readonly UserType[];
    skipInSideMenu?: boolean;
  };
  /** The page's buttons, each as a call names it (`button: PAGES.x.buttons.export`). */
  buttons: Readonly<Record<B, ButtonDecl>>;
  /** The page's governed columns, field → header. */
  columns: Readonly<Record<C, string>>;
}

type KeysOf<L> = L extends Labels ? keyof L & string : never;
type Derived<D extends Record<string, PageDecl>> = {
  [K in keyof D]: RouteDef<KeysOf<D[K]['buttons']>, KeysOf<D[K]['columns']>>;
};

const declare = <D extends Record<string, PageDecl>>(decls: D): Derived<D> => {
  const out: Record<string, RouteDef> = {};
  for (const key of Object.keys(decls)) {
    const d = decls[key]!;
    const page = d.segment ?? key;
    const path = d.group ? `${BASE_PATH}/${d.group}/${page}` : `${BASE_PATH}/${page}`;
    out[key] = {
      key,
      path,
      group: d.group,
      page,
      title: d.title,
      ...(d.back ? { back: true } : {}),
      ...(d.groupDefault ? { groupDefault: true } : {}),
      menu: {
        id: d.menuId,
        parent: d.hidden ? -1 : d.group ? GROUPS[d.group].id : null,
        icon: d.icon,
        types: d.types,
        ...(d.skipInSideMenu ? { skipInSideMenu: true } : {}),
      },
      buttons: Object.fromEntries(
        Object.entries(d.buttons ?? {}).map(([code, label]) => [code, { page: path, code, label }]),
      ),
      columns: d.columns ?? {},
    };
  }
  return out as Derived<D>;
};

/**
 * The pages, in menu order (a group's row goes just before its first page here). Pages that are
 * not in the legacy portal: drawingAccessReport (who could see what, on whose approval),
 * supplierBomTrace (the suppliers' 2–3 level BOMs and the where-used search), mobilePhoneLog,
 * permission and signInLog.
 */
export const PAGES = declare({
  dashboard: {
    group: '',
    title: '档案信息',
    menuId: 2,
    icon: 'HomeOutlined',
    types: ADMIN,
    buttons: { upload: '上传文件', obsolete: '作废', export: '导出Excel' },
    columns: { uploaderName: '上传人', obsoleteReason: '作废原因', remark: '备注' },
  },

  countersignList: {
    group: 'drawingManagement',
    title: '会签单列表',
    menuId: 3,
    icon: 'AuditOutlined',
    types: ADMIN,
    buttons: {
      create: '新建会签单',
      edit: '编辑',
      issue: '下发',
      sign: '会签',
      cancel: '取消会签单',
      download: '下载签核单',
    },
    columns: {
      createdByName: '创建人',
      cancelReason: '取消原因',
      // the detail's audit trail and signatures: who and from where, each its own column
      'events.userName': '操作记录·操作人',
      'events.userAccount': '操作记录·操作人账号',
      'events.ip': '操作记录·IP地址',
      'rounds.signatures.ip': '签署记录·IP地址',
    },
  },
  archivalHistory: { group: 'drawingManagement', title: '档案历史', menuId: 4, icon: 'HistoryOutlined', types: ADMIN },
  changeNoticeList: {
    group: 'drawingManagement',
    title: '变更通知列表',
    menuId: 5,
    icon: 'NotificationOutlined',
    types: ADMIN,
    buttons: { export: '导出', publish: '发布', withdraw: '撤回', close: '关闭', remind: '催办' },
    columns: {
      publishedByName: '发布人',
      withdrawReason: '撤回原因',
      // the detail's audit trail: who and from where, each its own column
      'events.userName': '操作记录·操作人',
      'events.userAccount': '操作记录·操作人账号',
      'events.ip': '操作记录·IP地址',
      // the recipients matrix
      readByName: '阅读人',
      readByAccount: '阅读人账号',
      readIp: '阅读IP',
      confirmedByName: '确认人',
      confirmedByAccount: '确认人账号',
      confirmedIp: '确认IP',
    },
  },
  blueprintDownloadingLog: {
    group: 'drawingManagement',
    title: '蓝图下载日志',
    menuId: 6,
    icon: 'DownloadOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  drawingViewLog: {
    group: 'drawingManagement',
    title: '图纸查看日志',
    menuId: 7,
    icon: 'EyeOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  drawingConfirmationLog: {
    group: 'drawingManagement',
    title: '图纸确认日志',
    menuId: 8,
    icon: 'CheckSquareOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  confidentialityAgreement: {
    group: 'drawingManagement',
    title: '保密协议记录',
    menuId: 9,
    icon: 'SafetyCertificateOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  drawingPrintlog: {
    group: 'drawingManagement',
    title: '图纸打印日志',
    menuId: 10,
    icon: 'PrinterOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  noticeOfChangeOfDrawingsHR: {
    group: 'drawingManagement',
    title: '图纸变更通知单',
    menuId: 11,
    icon: null,
    types: ADMIN,
    hidden: true,
    back: true,
  },
  documentIssueH: {
    group: 'drawingManagement',
    title: '图纸问题回复',
    menuId: 12,
    icon: 'QuestionCircleOutlined',
    types: [5],
    buttons: { assign: '领取/分派', reply: '回复' },
    columns: { assigneeName: '回复人', description: '问题描述' },
  },
  drawingsAndArchivesInformation: {
    group: 'drawingManagement',
    title: '图纸档案信息',
    menuId: 18,
    icon: null,
    types: ADMIN,
    skipInSideMenu: true,
    back: true,
  },

  noDrawingMaterialCensus: {
    group: 'drawingAuthorization',
    title: '供应商统计',
    menuId: 15,
    icon: 'BarChartOutlined',
    types: ADMIN,
    buttons: { export: '导出Excel' },
  },
  drawingAuthorizedFile: {
    group: 'drawingAuthorization',
    title: '已授权图纸',
    menuId: 16,
    icon: 'FileDoneOutlined',
    types: ADMIN,
    buttons: { revoke: '撤销授权' },
    columns: { approverName: '审批人', revokeReason: '撤销原因' },
  },
  drawingAuthorizedFileHistory: {
    group: 'drawingAuthorization',
    title: '授权图纸历史',
    menuId: 17,
    icon: 'FileSearchOutlined',
    types: ADMIN,
    columns: { approverName: '审批人', revokeReason: '撤销原因' },
  },
  noDrawingAndArchivesInformation: {
    group: 'drawingAuthorization',
    title: '未授权图纸档案信息',
    menuId: 19,
    icon: null,
    types: ADMIN,
    skipInSideMenu: true,
    back: true,
  },
  // type 6 decides; the drawing admins read the applications too (they read every page of the group)
  drawingEmpowerApprove: {
    group: 'drawingAuthorization',
    title: '供应商授权申请审批',
    menuId: 20,
    icon: 'SolutionOutlined',
    types: [6, ...ADMIN],
    buttons: { approve: '审批（批准/驳回）' },
    columns: {
      deciderName: '审批人',
      decisionComment: '审批意见',
      userName: '审批记录·操作人',
      userAccount: '审批记录·操作人账号',
      ip: '审批记录·IP地址',
    },
  },
  drawingAccessReport: {
    group: 'drawingAuthorization',
    title: '授权访问报告',
    menuId: 21,
    icon: 'AuditOutlined',
    types: ADMIN,
    buttons: { export: '导出Excel' },
    columns: {
      'events.userName': '访问记录·姓名',
      'events.userAccount': '访问记录·账号',
      'events.ip': '访问记录·IP地址',
    },
  },

  dashboardS: { group: 'supplier', title: '企业标准档案', menuId: 31, icon: 'FileTextOutlined', types: SUPPLIER },
  supplierCountersignList: {
    group: 'supplier',
    segment: 'countersignList',
    title: '会签单列表',
    menuId: 32,
    icon: 'AuditOutlined',
    types: SUPPLIER,
  },
  noticeList: { group: 'supplier', title: '图纸变更通知', menuId: 33, icon: 'NotificationOutlined', types: SUPPLIER },
  drawingsAndArchivesInformationG: {
    group: 'supplier',
    title: '图纸档案信息',
    menuId: 34,
    icon: null,
    types: SUPPLIER,
    hidden: true,
    back: true,
  },
  dashboardSHistory: {
    group: 'supplier',
    title: '企业标准档案历史',
    menuId: 35,
    icon: null,
    types: SUPPLIER,
    hidden: true,
  },
  noticeOfChangeOfDrawings: {
    group: 'supplier',
    title: '图纸变更通知单',
    menuId: 36,
    icon: null,
    types: SUPPLIER,
    hidden: true,
    back: true,
  },
  twoOrThreeLevelsBom: {
    group: 'supplier',
    title: '二三级BOM',
    menuId: 37,
    icon: 'ApartmentOutlined',
    types: SUPPLIER,
    buttons: { import: '导入' },
  },
  twoOrThreeLevelsSupplier: {
    group: 'supplier',
    title: '二三级供应商',
    menuId: 38,
    icon: 'TeamOutlined',
    types: SUPPLIER,
  },
  supplierDrawingEmpowerApply: {
    group: 'supplier',
    title: '图纸授权申请',
    menuId: 39,
    icon: 'FormOutlined',
    types: SUPPLIER,
    columns: { userName: '审批记录·操作人', userAccount: '审批记录·操作人账号', ip: '审批记录·IP地址' },
  },
  documentIssue: { group: 'supplier', title: '图纸问题', menuId: 40, icon: 'QuestionCircleOutlined', types: SUPPLIER },

  problemType: {
    group: 'personManagement',
    title: 'SQE及产品线管理',
    menuId: 51,
    icon: 'ClusterOutlined',
    types: [7],
    buttons: { delete: '删除问题类型' },
  },

  visitLog: {
    group: 'system',
    title: '访问日志',
    menuId: 61,
    icon: 'LineChartOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  // last of its group's menu: added after the system group existed, and the menu keeps its order
  supplierBomTrace: {
    group: 'drawingManagement',
    title: '供应商BOM追溯',
    menuId: 13,
    icon: 'ApartmentOutlined',
    types: ADMIN,
    columns: { contact: '联系人' },
  },
  mobilePhoneLog: {
    group: 'system',
    title: '手机号查看日志',
    menuId: 62,
    icon: 'EyeOutlined',
    types: ADMIN,
    buttons: { export: '导出Excel' },
    columns: { ip: 'IP地址' },
  },
  permission: { group: 'system', title: '按钮与列权限', menuId: 63, icon: 'KeyOutlined', types: [7] },
  signInLog: {
    group: 'system',
    title: '登录日志',
    menuId: 64,
    icon: 'LoginOutlined',
    types: ADMIN,
    columns: { ip: 'IP地址' },
  },
  // the tamper-evident chain: last verification and each day's chain head, kept elsewhere by an operator
  auditVerify: {
    group: 'system',
    title: '审计校验',
    menuId: 65,
    icon: 'SafetyCertificateOutlined',
    types: ADMIN,
    buttons: { verify: '立即校验' },
  },
  // a copy found outside → who received it (its copy code or the PDF's metadata)
  leakTrace: { group: 'system', title: '泄露追溯', menuId: 66, icon: 'AuditOutlined', types: ADMIN },
  // every notification mail with its state, tries and the server's answer; 重新发送
  notificationLog: {
    group: 'system',
    title: '通知发送记录',
    menuId: 67,
    icon: 'MailOutlined',
    types: ADMIN,
    buttons: { export: '导出Excel', resend: '重新发送', bounce: '标记为已退回', editEmail: '修改邮箱' },
  },
  // every act of the workflows (notices, applications, questions, countersigns): who did what to which record
  operationAudit: {
    group: 'system',
    title: '操作审计',
    menuId: 73,
    icon: 'FileSearchOutlined',
    types: ADMIN,
    columns: { userName: '操作人', userAccount: '操作人账号', ip: 'IP地址', detail: '说明' },
  },
  // every user's own notifications (the header bell's 查看全部), and their e-mail and notification
  // choices (the header's user name): reached from the header, not from the side menu
  notifications: { group: '', title: '我的通知', menuId: 70, icon: null, types: EVERYONE, hidden: true },
  settings: { group: '', title: '个人设置', menuId: 71, icon: null, types: EVERYONE, hidden: true },
});
export type PageKey = keyof typeof PAGES;

/** Every page, in menu order. */
export const ROUTES: RouteDef[] = Object.values(PAGES);
export const routeByPath = new Map(ROUTES.map((x) => [x.path, x]));

/** A group's own route: its default page. */
export const groupPath = (group: GroupKey) => `${BASE_PATH}/${group}`;
export const GROUP_TITLES: Record<string, string> = Object.fromEntries(
  Object.entries(GROUPS).map(([k, g]) => [k, g.title]),
);

/** Each user type's landing page. */
export const DEFAULT_PAGE: Record<UserType, string> = {
  2: PAGES.dashboardS.path,
  4: PAGES.dashboardS.path,
  3: PAGES.dashboard.path,
  7: PAGES.dashboard.path,
  8: PAGES.dashboard.path,
  9: PAGES.dashboard.path,
  5: PAGES.documentIssueH.path,
  6: PAGES.drawingEmpowerApprove.path,
};
