/**
 * Every page of the contracts' PAGES under /esm, with its component (features/pages.ts); a page
 * marked `groupDefault` and each group's own route show the shared group default page, never a
 * blank. Unknown paths get the not-found page.
 */
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { BASE_PATH, GROUPS, LOGIN_PATH, ROUTES, groupPath, type GroupKey } from '@esm/contracts/basics';
import { FrameLoading, PageLoading } from '../components/PageLoading.tsx';
import { SessionGate } from './SessionGate.tsx';
import { IndexRedirect } from './IndexRedirect.tsx';
import { loadLayout, PAGE_LOADERS } from './afterLogin.ts';
import { lazyLoaded } from '../lib/lazyLoaded.ts';
import { RootRouteError, RouteError } from './RouteError.tsx';
import { PageScroll } from './PageScroll.tsx';

/** /esm/login inside the portal (after a logout); the first load of /esm/login is main.tsx's. */
const LoginPage = lazy(() => import('./LoginRoute.tsx'));
const NotFoundPage = lazy(() => import('./chunks/error.tsx'));
/** The shell (menus, header, bell) loads after the session check, so the login page does not wait for it. */
const GroupDefault = lazy(() => import('./GroupDefault.tsx').then((m) => ({ default: m.GroupDefault })));
const BasicLayout = lazyLoaded(loadLayout, (m) => m.BasicLayout);

/** Built pages by route path (lazy: each loads when first visited, or renders at once when prefetched). */
const PAGE_COMPONENTS: Record<string, ComponentType> = Object.fromEntries(
  Object.entries(PAGE_LOADERS).map(([path, load]) => [path, lazyLoaded(load, (m) => m.default)]),
);

/**
 * A page in its own Suspense boundary, keyed by its route (`key`) in the layout's content area.
 *
 * The key matters. Every page's element is a <Suspense> at the same place under the layout's
 * <Outlet>, so without it React kept one boundary for all pages, already showing the page before.
 * A navigation is a transition (React Router), and a transition never hides what a boundary
 * already shows: while the next page's code was on its way, the previous page stayed on screen,
 * working, under the new address. What was typed into it then was lost when the code came and
 * the page was replaced — the evidence journey filled 档案信息's 物料编码 box on a loaded machine,
 * 授权访问报告 took its place empty, and 查询 said 请输入物料编码或标准编号. A page of its own
 * boundary shows the loading page at once instead (a page whose code is in renders directly,
 * lib/lazyLoaded.ts); a change of the query string keeps the page and its boundary.
 */
const withSuspense = (C: ComponentType, key?: string) => (
  <Suspense key={key} fallback={<PageLoading code />}>
    <C />
  </Suspense>
);

const groupDefault = (key: string, group: string, page?: string) => (
  <Suspense key={key} fallback={<PageLoading code />}>
    <GroupDefault group={group} page={page} />
  </Suspense>
);

/**
 * Error boundaries: a page that fails (its code did not load, it threw) shows RouteError inside the
 * layout, header and menu kept; anything above the pages (the session gate, the layout's own code)
 * falls to the top-level one. Without them React Router shows its English developer screen.
 */
export const router = createBrowserRouter([
  {
    element: (
      <>
        <PageScroll />
        <Outlet />
      </>
    ),
    errorElement: <RootRouteError />,
    children: [
      { path: LOGIN_PATH, element: withSuspense(LoginPage) },
      {
        path: BASE_PATH,
        element: <SessionGate />,
        children: [
          {
            // the layout's code on its way: the portal's frame, as before the shell's (main.tsx)
            element: (
              <Suspense fallback={<FrameLoading code />}>
                <BasicLayout />
              </Suspense>
            ),
            children: [
              {
                // pathless: the pages' boundary, rendered in the layout's content area
                errorElement: <RouteError />,
                children: [
                  { index: true, element: <IndexRedirect /> },
                  ...ROUTES.map((r) => ({
                    path: r.path,
                    element: PAGE_COMPONENTS[r.path]
                      ? withSuspense(PAGE_COMPONENTS[r.path]!, r.path)
                      : groupDefault(r.path, r.group, r.page),
                  })),
                  ...(Object.keys(GROUPS) as GroupKey[]).map((g) => ({
                    path: groupPath(g),
                    element: groupDefault(groupPath(g), g),
                  })),
                  { path: '*', element: withSuspense(NotFoundPage, '*') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to={`${BASE_PATH}/`} replace /> },
    ],
  },
]);
