import { Button, Layout, Space, Switch, Tooltip, Typography } from 'antd';
import { LogoutOutlined, MenuOutlined, MoonOutlined, QuestionCircleOutlined, SunOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { EXTERNAL_LINKS, LOGIN_PATH, PAGES, UI, isSupplierType } from '@esm/contracts';
import { logout } from '../../features/session/index.ts';
import { NoticeSummary } from '../../features/notices/index.ts';
import { NotificationBell } from '../../features/notifications/index.ts';
import { useCurrentUser } from '../SessionGate.tsx';
import { useThemeName } from '../../lib/preferences.ts';
import { onCompanySite, useCompanySite } from './companySite.ts';

/** The header's height (BasicLayout keeps the footer below the fold with it). */
export const HEADER_HEIGHT = 56;
const BAR = {
  display: 'flex',
  alignItems: 'center',
  gap: 16,
  height: HEADER_HEIGHT,
  lineHeight: `${HEADER_HEIGHT}px`,
  paddingInline: 16,
  background: '#001529',
  color: '#fff',
} as const;
const LINK = { color: 'rgba(255,255,255,0.88)' } as const;

function useLogout() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  // on success the user is asked again — nobody now. Straight to the login page with no
  // ?redirect: the next person to sign in on this browser lands on their own page, and
  // nothing the previous user loaded stays in the cache.
  return async () => {
    const res = await logout();
    // Signed in from the company home page: on to the provider's sign-out, which returns there.
    if (res.data?.redirectUrl) return window.location.assign(res.data.redirectUrl);
    navigate(LOGIN_PATH, { replace: true });
    qc.clear();
    qc.setQueryData(['session'], { state: 'anonymous' });
    // asked again in the background: whether the login page offers the company sign-in
    void qc.invalidateQueries({ queryKey: ['session'] });
  };
}

/** The logo, a link to the company site's login page when there is a company site (COMPANY_SITE_URL); otherwise the plain logo. */
function Logo() {
  const site = useCompanySite();
  const style = { display: 'flex', alignItems: 'center', gap: 8, color: '#fff' } as const;
  const content = (
    <>
      <img src="/esm/logo.svg" alt="ESM" width={28} height={28} />
      <span style={{ fontSize: 16, fontWeight: 600, whiteSpace: 'nowrap' }}>ESM 图纸档案管理平台</span>
    </>
  );
  return site ? (
    <a
      href={onCompanySite(site, EXTERNAL_LINKS.companyLogin.href)}
      style={style}
      title="公司首页"
      data-testid="header-logo"
    >
      {content}
    </a>
  ) : (
    <div style={style} data-testid="header-logo">
      {content}
    </div>
  );
}

function UserName() {
  const user = useCurrentUser();
  return (
    <Tooltip title={user.supplierName ? `${user.displayName}（${user.supplierName}）` : user.displayName}>
      {/* 个人设置: the user's own e-mail and notification choices */}
      <Link
        to={PAGES.settings.path}
        className="esm-header-name"
        style={{ maxWidth: UI.headerNameMaxWidth, color: 'inherit' }}
        data-testid="header-user-name"
      >
        {user.displayName}
      </Link>
    </Tooltip>
  );
}

function ThemeSwitch() {
  const [themeName, setThemeName] = useThemeName();
  return (
    <Tooltip title={themeName === 'dark' ? '切换为浅色主题' : '切换为深色主题'}>
      <Switch
        size="small"
        checked={themeName === 'dark'}
        onChange={(on) => setThemeName(on ? 'dark' : 'light')}
        checkedChildren={<MoonOutlined aria-label="深色主题" />}
        unCheckedChildren={<SunOutlined aria-label="浅色主题" />}
        aria-label="深色主题"
      />
    </Tooltip>
  );
}

/** The bell for every user type; a supplier's panel opens with its change-notice work. */
function HeaderBell() {
  const user = useCurrentUser();
  return <NotificationBell summary={isSupplierType(user.type) ? <NoticeSummary /> : undefined} />;
}

/** The header of the legacy portal: logo, the notification bell, home link, user name (max 80 px), logout. */
export function AppHeader() {
  const user = useCurrentUser();
  const doLogout = useLogout();
  return (
    <Layout.Header style={BAR}>
      <div className="esm-inner" style={{ display: 'flex', alignItems: 'center', gap: 16, maxWidth: 'none' }}>
        <Logo />
        <div style={{ flex: 1 }} />
        <Space size={16}>
          <HeaderBell />
          <Link to={user.defaultPath} style={LINK}>
            首页
          </Link>
          <ThemeSwitch />
          <UserName />
          <Typography.Link onClick={doLogout} style={LINK} data-testid="logout">
            <LogoutOutlined aria-hidden aria-label="退出" /> 退出
          </Typography.Link>
        </Space>
      </div>
    </Layout.Header>
  );
}

/** The narrow-screen navbar (< 769 px): menu button, and the variant with help, bell and quit. */
export function NarrowNavbar({ onMenu }: { onMenu: () => void }) {
  const doLogout = useLogout();
  const site = useCompanySite();
  return (
    <Layout.Header style={{ ...BAR, gap: 8, paddingInline: 8 }} data-testid="narrow-navbar">
      <Button
        type="text"
        icon={<MenuOutlined style={{ color: '#fff' }} aria-hidden aria-label="菜单" />}
        onClick={onMenu}
        aria-label="打开菜单"
      />
      <img src="/esm/logo.svg" alt="ESM" width={24} height={24} />
      <div style={{ flex: 1, minWidth: 0 }}>
        <UserName />
      </div>
      {/* the help center is the company site's: none, no help link */}
      {site && (
        <a href={onCompanySite(site, EXTERNAL_LINKS.help.href)} style={LINK} aria-label="帮助">
          <QuestionCircleOutlined aria-hidden aria-label="帮助" />
        </a>
      )}
      <HeaderBell />
      <ThemeSwitch />
      <Typography.Link onClick={doLogout} style={LINK} data-testid="logout">
        退出
      </Typography.Link>
    </Layout.Header>
  );
}
