/**
 * Every route of spec §2 under /esm. Pages built so far are listed in PAGES; every other route
 * shows the shared group default page, never a blank. Unknown paths get the not-found page.
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { BASE_PATH, GROUP_TITLES, LOGIN_PATH, ROUTES } from '@esm/contracts';
import { PageLoading } from '../components/PageLoading.tsx';
import { GroupDefault } from '../components/GroupDefault.tsx';
import { SessionGate } from './SessionGate.tsx';
import { BasicLayout } from './layout/BasicLayout.tsx';
import { IndexRedirect } from './IndexRedirect.tsx';

const LoginPage = lazy(() => import('../pages/chunks/login.tsx'));
const NotFoundPage = lazy(() => import('../pages/chunks/error.tsx'));

/** Built pages by route path (lazy: each loads when first visited). */
const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  [`${BASE_PATH}/dashboard`]: lazy(() => import('../pages/chunks/dashboard.tsx')),
  [`${BASE_PATH}/system/visitLog`]: lazy(() => import('../pages/system/VisitLogPage.tsx')),
  [`${BASE_PATH}/supplier/dashboardS`]: lazy(() => import('../pages/supplier/DashboardSPage.tsx')),
  [`${BASE_PATH}/supplier/dashboardSHistory`]: lazy(() => import('../pages/supplier/DashboardSHistoryPage.tsx')),
  [`${BASE_PATH}/supplier/drawingsAndArchivesInformationG`]: lazy(() => import('../pages/supplier/DrawingsAndArchivesInformationGPage.tsx')),
  [`${BASE_PATH}/drawingManagement/drawingsAndArchivesInformation`]: lazy(() => import('../pages/drawingManagement/DrawingsAndArchivesInformationPage.tsx')),
  [`${BASE_PATH}/drawingManagement/archivalHistory`]: lazy(() => import('../pages/drawingManagement/ArchivalHistoryPage.tsx')),
  [`${BASE_PATH}/drawingManagement/drawingViewLog`]: lazy(() => import('../pages/drawingManagement/LogPage.tsx')),
  [`${BASE_PATH}/drawingManagement/drawingConfirmationLog`]: lazy(() => import('../pages/drawingManagement/LogPage.tsx')),
  [`${BASE_PATH}/drawingManagement/blueprintDownloadingLog`]: lazy(() => import('../pages/drawingManagement/LogPage.tsx')),
  [`${BASE_PATH}/drawingManagement/drawingPrintlog`]: lazy(() => import('../pages/drawingManagement/LogPage.tsx')),
  [`${BASE_PATH}/drawingManagement/confidentialityAgreement`]: lazy(() => import('../pages/drawingManagement/LogPage.tsx')),
};

const withSuspense = (C: ComponentType) => (
  <Suspense fallback={<PageLoading />}>
    <C />
  </Suspense>
);

export const router = createBrowserRouter([
  { path: LOGIN_PATH, element: withSuspense(LoginPage) },
  {
    path: BASE_PATH,
    element: <SessionGate />,
    children: [
      {
        element: <BasicLayout />,
        children: [
          { index: true, element: <IndexRedirect /> },
          ...ROUTES.map((r) => ({ path: r.path, element: PAGES[r.path] ? withSuspense(PAGES[r.path]!) : <GroupDefault group={r.group} page={r.page} /> })),
          ...Object.keys(GROUP_TITLES).map((g) => ({ path: `${BASE_PATH}/${g}`, element: <GroupDefault group={g} /> })),
          { path: '*', element: withSuspense(NotFoundPage) },
        ],
      },
    ],
  },
  { path: '*', element: <Navigate to={`${BASE_PATH}/`} replace /> },
]);
