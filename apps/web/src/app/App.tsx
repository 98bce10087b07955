import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider, theme as antdTheme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router/dom';
import { UI } from '@esm/contracts/basics';
import { feedback } from '../api/feedback.ts';
import { useToastTop } from '../components/toastTop.ts';
import { useThemeName } from './preferences.ts';
import { router } from './router.tsx';

dayjs.locale('zh-cn');

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 0 }, mutations: { retry: 0 } },
});

/** Hands antd's themed message/modal to code outside React (the API client). */
function FeedbackBridge() {
  const { message, modal } = AntApp.useApp();
  feedback.message = message;
  feedback.modal = modal;
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

export function App() {
  const [themeName] = useThemeName();
  return (
    <ConfigProvider
      locale={zhCN}
      theme={{ algorithm: themeName === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm, token: { colorPrimary: '#1668dc' } }}
      modal={{}}
    >
      <AntAppWithToasts>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntAppWithToasts>
    </ConfigProvider>
  );
}

export { queryClient };
