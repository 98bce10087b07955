/** The notifications feature's public face: the header bell, and its pages (loaded when opened). */
import { BASE_PATH, NOTIFICATION_LOG_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { NotificationBell } from './NotificationBell.tsx';
export const SETTINGS_PATH = `${BASE_PATH}/settings`;
export const pages: PageLoaders = {
  [`${BASE_PATH}/notifications`]: () => import('./pages/notifications.tsx'),
  [SETTINGS_PATH]: () => import('./pages/settings.tsx'),
  [NOTIFICATION_LOG_PAGE]: () => import('./pages/notificationLog.tsx'),
};
