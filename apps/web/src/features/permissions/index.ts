/**
 * The permissions feature's public face: other features hide the buttons and columns a user may
 * not use through these (the server refuses them anyway), and its admin page.
 */
import { PERMISSION_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export { fetchPermissionsAhead, useButton, useColumnModes, usePageButtons, withoutHidden } from './api.ts';
export const pages: PageLoaders = { [PERMISSION_PAGE]: () => import('./pages/permission.tsx') };
