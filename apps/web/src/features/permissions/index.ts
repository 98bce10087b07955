/**
 * The permissions feature's public face: other features hide the buttons and columns a user may
 * not use through these (the server refuses them anyway), and its admin page.
 */
import type { PageLoaders } from '../pages.ts';

export { fetchPermissionsAhead, useButton, useColumnModes, usePageButtons, withoutHidden } from './api.ts';
export { Permitted } from './Permitted.tsx';
export const pages: PageLoaders = { permission: () => import('./pages/permission.tsx') };
