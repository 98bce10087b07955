/**
 * The menu tree of spec §2 — reference data the portal needs in every installation, upserted at
 * every start. Group ids 1 and 14 are the ones the side menu keeps open; entries with mpid -1 are
 * hidden pages reached from another page; ids 18 and 19 are the tree pages the side menu skips.
 */
import { path } from '@esm/contracts';

export interface MenuSeed {
  id: number;
  cn: string;
  name: string;
  icon: string | null;
  router: string;
  mpid: number | null;
  types: number[];
}

const ADMIN = [3, 7, 8, 9];
const SUPPLIER = [2, 4];

const group = (id: number, name: string, cn: string, icon: string, types: number[]): MenuSeed => ({ id, cn, name, icon, router: `/esm/${name}`, mpid: null, types });
const entry = (id: number, mpid: number | null, g: string, name: string, cn: string, icon: string | null, types: number[]): MenuSeed => ({
  id,
  cn,
  name,
  icon,
  router: path(g, name),
  mpid,
  types,
});

export const MENU: MenuSeed[] = [
  entry(2, null, '', 'dashboard', '档案信息', 'HomeOutlined', ADMIN),

  group(1, 'drawingManagement', '图纸管理', 'FolderOpenOutlined', [...ADMIN, 5]),
  entry(3, 1, 'drawingManagement', 'countersignList', '会签单列表', 'AuditOutlined', ADMIN),
  entry(4, 1, 'drawingManagement', 'archivalHistory', '档案历史', 'HistoryOutlined', ADMIN),
  entry(5, 1, 'drawingManagement', 'changeNoticeList', '变更通知列表', 'NotificationOutlined', ADMIN),
  entry(6, 1, 'drawingManagement', 'blueprintDownloadingLog', '蓝图下载日志', 'DownloadOutlined', ADMIN),
  entry(7, 1, 'drawingManagement', 'drawingViewLog', '图纸查看日志', 'EyeOutlined', ADMIN),
  entry(8, 1, 'drawingManagement', 'drawingConfirmationLog', '图纸确认日志', 'CheckSquareOutlined', ADMIN),
  entry(9, 1, 'drawingManagement', 'confidentialityAgreement', '保密协议记录', 'SafetyCertificateOutlined', ADMIN),
  entry(10, 1, 'drawingManagement', 'drawingPrintlog', '图纸打印日志', 'PrinterOutlined', ADMIN),
  entry(11, -1, 'drawingManagement', 'noticeOfChangeOfDrawingsHR', '图纸变更通知单', null, ADMIN),
  entry(12, 1, 'drawingManagement', 'documentIssueH', '图纸问题回复', 'QuestionCircleOutlined', [5]),
  entry(18, 1, 'drawingManagement', 'drawingsAndArchivesInformation', '图纸档案信息', null, ADMIN),

  group(14, 'drawingAuthorization', '图纸授权', 'KeyOutlined', [...ADMIN, 6]),
  entry(15, 14, 'drawingAuthorization', 'noDrawingMaterialCensus', '供应商统计', 'BarChartOutlined', ADMIN),
  entry(16, 14, 'drawingAuthorization', 'drawingAuthorizedFile', '已授权图纸', 'FileDoneOutlined', ADMIN),
  entry(17, 14, 'drawingAuthorization', 'drawingAuthorizedFileHistory', '授权图纸历史', 'FileSearchOutlined', ADMIN),
  entry(19, 14, 'drawingAuthorization', 'noDrawingAndArchivesInformation', '未授权图纸档案信息', null, ADMIN),
  // type 6 decides; the drawing admins read the applications too (issue 10: they read every page of the group)
  entry(20, 14, 'drawingAuthorization', 'drawingEmpowerApprove', '供应商授权申请审批', 'SolutionOutlined', [6, ...ADMIN]),
  // not in the legacy spec: the access report of issue 10
  entry(21, 14, 'drawingAuthorization', 'drawingAccessReport', '授权访问报告', 'AuditOutlined', ADMIN),

  group(30, 'supplier', '供应商专区', 'ShopOutlined', SUPPLIER),
  entry(31, 30, 'supplier', 'dashboardS', '企业标准档案', 'FileTextOutlined', SUPPLIER),
  entry(32, 30, 'supplier', 'countersignList', '会签单列表', 'AuditOutlined', SUPPLIER),
  entry(33, 30, 'supplier', 'noticeList', '图纸变更通知', 'NotificationOutlined', SUPPLIER),
  entry(34, -1, 'supplier', 'drawingsAndArchivesInformationG', '图纸档案信息', null, SUPPLIER),
  entry(35, -1, 'supplier', 'dashboardSHistory', '企业标准档案历史', null, SUPPLIER),
  entry(36, -1, 'supplier', 'noticeOfChangeOfDrawings', '图纸变更通知单', null, SUPPLIER),
  entry(37, 30, 'supplier', 'twoOrThreeLevelsBom', '二三级BOM', 'ApartmentOutlined', SUPPLIER),
  entry(38, 30, 'supplier', 'twoOrThreeLevelsSupplier', '二三级供应商', 'TeamOutlined', SUPPLIER),
  entry(39, 30, 'supplier', 'supplierDrawingEmpowerApply', '图纸授权申请', 'FormOutlined', SUPPLIER),
  entry(40, 30, 'supplier', 'documentIssue', '图纸问题', 'QuestionCircleOutlined', SUPPLIER),

  group(50, 'personManagement', '人员管理', 'UserOutlined', [7]),
  entry(51, 50, 'personManagement', 'problemType', 'SQE及产品线管理', 'ClusterOutlined', [7]),

  group(60, 'system', '系统管理', 'SettingOutlined', ADMIN),
  entry(61, 60, 'system', 'visitLog', '访问日志', 'LineChartOutlined', ADMIN),
  // not in the legacy spec: the suppliers' 2–3 level BOMs read-only and the where-used search (issue 13)
  entry(13, 1, 'drawingManagement', 'supplierBomTrace', '供应商BOM追溯', 'ApartmentOutlined', ADMIN),
  // issue 14: who revealed which mobile number; the button and column permissions (type 7 only)
  entry(62, 60, 'system', 'mobilePhoneLog', '手机号查看日志', 'EyeOutlined', ADMIN),
  entry(63, 60, 'system', 'permission', '按钮与列权限', 'KeyOutlined', [7]),
  // every sign-in, success or refusal (sign_in_log, issue 15), beside the visit log
  entry(64, 60, 'system', 'signInLog', '登录日志', 'LoginOutlined', ADMIN),
  // every user's own notifications, reached from the header bell (hidden from the side menu)
  entry(70, -1, '', 'notifications', '我的通知', null, [...SUPPLIER, ...ADMIN, 5, 6]),
  entry(71, -1, '', 'settings', '个人设置', null, [...SUPPLIER, ...ADMIN, 5, 6]),
  // every notification mail with its state, tries and the server's answer; 重新发送
  entry(65, 60, 'system', 'notificationLog', '通知发送记录', 'MailOutlined', ADMIN),
];
