/**
 * The portal shell, laid out as the legacy portal's: header, collapsible side menu (200 / 64), breadcrumb, content,
 * footer; below 769 px a narrow navbar with the menu in a drawer. Sends user_visit on each page.
 */
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { Layout, theme } from 'antd';
import { Drawer } from '../../components/Drawer.ts';
import { Outlet, useLocation } from 'react-router';
import { UI, routeByPath } from '@esm/contracts';
import { useMenu } from '../../features/menu/index.ts';
import { sendVisit } from '../../features/visits/index.ts';
import { ErrorResult } from '../../components/ErrorResult.tsx';
import { FrameLoading } from '../../components/PageLoading.tsx';
import { useCurrentUser } from '../SessionGate.tsx';
import { useCollapsed, useThemeName } from '../../lib/preferences.ts';
import { AppHeader, HEADER_HEIGHT, NarrowNavbar } from './AppHeader.tsx';
import { AppFooter } from './AppFooter.tsx';
import { PageCrumbs } from './PageCrumbs.tsx';
import { SideMenu } from './SideMenu.tsx';
import { MenuContext } from './menuContext.ts';
import { menuName } from './menuTree.ts';
import { ForbiddenPage } from '../ForbiddenPage.tsx';

function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth < UI.narrowBreakpoint);
  useEffect(() => {
    const mq = window.matchMedia(`(max-width: ${UI.narrowBreakpoint - 1}px)`);
    const on = () => setNarrow(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}

export function BasicLayout() {
  const user = useCurrentUser();
  const menu = useMenu(user.id);
  const location = useLocation();
  const narrow = useNarrow();
  const [collapsed, setCollapsed] = useCollapsed();
  const [themeName] = useThemeName();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { token } = theme.useToken();

  const entries = menu.data ?? [];
  const path = location.pathname.replace(/\/+$/, '');
  const route = routeByPath.get(path);

  useEffect(() => {
    if (!menu.data) return;
    sendVisit(menuName(menu.data, path, route?.title ?? '页面不存在'), path);
    setDrawerOpen(false);
  }, [path, menu.data, route?.title]);

  if (menu.isPending) return <FrameLoading />;
  if (menu.isError) return <ErrorResult error={menu.error} onRetry={() => menu.refetch()} />;

  // A page of the portal that is not in this user's menu: the server refuses its data anyway;
  // say so instead of showing an empty page.
  const allowed = !route || entries.some((e) => e.router === path);
  const dark = themeName === 'dark';

  return (
    <MenuContext.Provider value={entries}>
      <Layout style={{ minHeight: '100vh' }}>
        {narrow ? <NarrowNavbar onMenu={() => setDrawerOpen(true)} /> : <AppHeader />}
        <Layout>
          {narrow ? (
            <Drawer
              placement="left"
              open={drawerOpen}
              onClose={() => setDrawerOpen(false)}
              size={UI.siderWidth + 40}
              styles={{ body: { padding: 0 } }}
              title="菜单"
            >
              <SideMenu entries={entries} collapsed={false} dark={false} />
            </Drawer>
          ) : (
            <Layout.Sider
              collapsible
              collapsed={collapsed}
              onCollapse={setCollapsed}
              width={UI.siderWidth}
              collapsedWidth={UI.siderCollapsedWidth}
              // the built-in trigger's icon would be read as "left"/"right"
              trigger={collapsed ? <RightOutlined aria-label="展开菜单" /> : <LeftOutlined aria-label="收起菜单" />}
              theme={dark ? 'dark' : 'light'}
              style={{ borderRight: dark ? undefined : `1px solid ${token.colorBorderSecondary}` }}
              data-testid="side-menu"
            >
              <SideMenu entries={entries} collapsed={collapsed} dark={dark} />
            </Layout.Sider>
          )}
          <Layout style={{ minWidth: 0 }}>
            {/* at least a window's height: the footer starts below the fold, so a page filling in
                (a table's rows arriving) never pushes it across the screen (layout shift) */}
            <Layout.Content
              style={{
                padding: narrow ? 12 : '16px 24px',
                display: 'flex',
                flexDirection: 'column',
                gap: 12,
                minHeight: `calc(100vh - ${HEADER_HEIGHT}px)`,
              }}
            >
              <PageCrumbs />
              <div
                style={{
                  background: token.colorBgContainer,
                  borderRadius: token.borderRadiusLG,
                  padding: narrow ? 12 : 24,
                  flex: 1,
                }}
              >
                {allowed ? <Outlet /> : <ForbiddenPage />}
              </div>
            </Layout.Content>
            <AppFooter />
          </Layout>
        </Layout>
      </Layout>
    </MenuContext.Provider>
  );
}
