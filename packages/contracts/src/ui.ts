import { GROUPS, ROUTES, type GroupDecl } from './pages.ts';

/** Layout and behaviour constants of the legacy portal. */
export const UI = {
  toastSeconds: 3,
  spinnerHideDelayMs: 200,
  jsonpTimeoutMs: 4000,
  requestTimeoutMs: 30_000,
  narrowBreakpoint: 769,
  breakpoints: { xs: 480, sm: 768, md: 992, lg: 1200, xl: 1600 },
  layoutWidth: 1200,
  siderWidth: 200,
  siderCollapsedWidth: 64,
  headerNameMaxWidth: 80,
  confirmWidth: 416,
  modalWidth: 520,
  copyright: '© 2016-2020',
  contactPhone: '400-699-9999',
} as const;

/** Side menu rules: which groups stay open and which pages it leaves out, as PAGES declares them. */
export const MENU_RULES = {
  openGroupIds: Object.values(GROUPS as Record<string, GroupDecl>).flatMap((g) => (g.open ? [g.id] : [])),
  hiddenMpid: -1,
  skippedIds: ROUTES.flatMap((p) => (p.menu.skipInSideMenu ? [p.menu.id] : [])),
};

export const EMPTY_TABLE_TEXT = '没有匹配的结果';
export const LOGIN_SUCCESS_TEXT = '登陆成功';

/**
 * Footer content. The legacy portal's hosts and filing numbers are "not shown": these
 * are this installation's values — change them per deployment.
 */
export const FOOTER = {
  company: 'ESM 图纸档案管理平台',
  friendlyLinks: [
    { href: 'https://www.haier.com/', text: '海尔集团' },
    { href: 'https://www.gov.cn/', text: '中国政府网' },
  ],
  qrCodeUrl: 'https://www.haier.com/',
  icp: { href: 'https://beian.miit.gov.cn/', text: '鲁ICP备09096283号' },
  police: { href: 'https://www.beian.gov.cn/', text: '鲁公网安备 37021202000631号' },
} as const;
