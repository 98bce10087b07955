/**
 * The permissions feature's public face: its admin page. Pages hide the buttons and columns a user
 * may not use through lib/permissions.ts and components/Permitted.tsx (the server refuses them anyway).
 */
import { PERMISSION_PAGE } from '@esm/contracts/basics';
import type { PageLoaders } from '../pages.ts';

export const pages: PageLoaders = { [PERMISSION_PAGE]: () => import('./pages/permission.tsx') };
