import { useEffect, useState, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
// every antd component's styles, prebuilt (zeroRuntime below); loaded with the shell, never on the login page's first load
import 'antd/dist/antd.css';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { UI } from '@esm/contracts/basics';
import { feedback } from '../api/feedback.ts';
import { useToastTop } from '../components/toastTop.ts';
import { prefersReducedMotion } from '../components/useScreen.ts';
import { useThemeName } from '../lib/preferences.ts';
import { router } from './router.tsx';
import { portalTheme } from './theme.ts';
import { queryClient } from './queryClient.ts';

dayjs.locale('zh-cn');

/** `welcome` toasted once per page load (StrictMode runs effects twice in development). */
let welcomed = false;

/**
 * Hands antd's themed message/modal to code outside React (the API client), and toasts
 * `welcome`: 登陆成功 from the first-load login page, which has no antd (main.tsx).
 */
function FeedbackBridge({ welcome }: { welcome?: string }) {
  const { message, modal } = AntApp.useApp();
  feedback.message = message;
  feedback.modal = modal;
  useEffect(() => {
    if (!welcome || welcomed) return;
    welcomed = true;
    message.success({ content: welcome, duration: UI.toastSeconds });
  }, [welcome, message]);
  return null;
}

/**
 * antd's <App> with the app-wide toast settings; its own component so that moving the toasts
 * (below the file viewer's toolbar) re-renders only this, not the pages passed in as children.
 */
function AntAppWithToasts({ children }: { children: ReactNode }) {
  const top = useToastTop();
  return <AntApp message={{ duration: UI.toastSeconds, maxCount: 3, top }}>{children}</AntApp>;
}

export function App({ welcome }: { welcome?: string }) {
  const [themeName] = useThemeName();
  // a user who asked the system for less motion gets none of antd's zoom and slide animations
  const [motion] = useState(() => !prefersReducedMotion());
  return (
    <ConfigProvider
      locale={zhCN}
      // zeroRuntime (portalTheme): the components' styles come from antd/dist/antd.css (above)
      // instead of being generated in the browser on each page load (~590 KB of
      // CSS-in-JS on the landing page, part of its first render's CPU).
      theme={portalTheme(themeName, motion)}
      modal={{}}
    >
      <AntAppWithToasts>
        <FeedbackBridge welcome={welcome} />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntAppWithToasts>
    </ConfigProvider>
  );
}
