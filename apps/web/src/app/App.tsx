import { App as AntApp, ConfigProvider, theme as antdTheme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { UI } from '@esm/contracts';
import { feedback } from '../api/feedback.ts';
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

export function App() {
  const [themeName] = useThemeName();
  return (
    <ConfigProvider
      locale={zhCN}
      theme={{ algorithm: themeName === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm, token: { colorPrimary: '#1668dc' } }}
      modal={{}}
    >
      <AntApp message={{ duration: UI.toastSeconds, maxCount: 3 }}>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export { queryClient };
