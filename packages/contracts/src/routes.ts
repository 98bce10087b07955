/** The portal's base paths, its fixed breadcrumbs and its links to the company site; the pages are pages.ts's. */
export const BASE_PATH = '/esm';
export const API_BASE = '/esm-server/api';
/** The menu's call (menuApi.roleFunction), which every signed-in page asks first. */
export const MENU_PATH = 'main/getRoleFunction';
export const LOGIN_PATH = `${BASE_PATH}/login`;

/** Fixed breadcrumb titles of the legacy portal (paths relative to /esm). */
export const FIXED_CRUMBS: Record<string, string> = {
  '/dashboard': '档案信息',
  '/permissionCenter/agent': '待办',
  '/permissionCenter/hisTask': '已办',
  '/quota/myApplication': '申请中',
  '/quota/myNotApproved': '申请中',
  '/quota/myCompleted': '已完成',
};

/** External links of the legacy portal (served by the company site; the host is configurable). */
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
