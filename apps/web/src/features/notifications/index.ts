/** The notifications feature's public face: the header bell, and the centre page (loaded when opened). */
import { BASE_PATH } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { NotificationBell } from './NotificationBell.tsx';
export const pages: PageLoaders = { [`${BASE_PATH}/notifications`]: () => import('./pages/notifications.tsx') };
