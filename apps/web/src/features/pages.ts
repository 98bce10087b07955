/**
 * Every built page, by its spec §2 route: each feature declares its own in its index; the router
 * shows the group default page for a route no feature has built yet. The dashboard (a spec chunk
 * of its own) is added by the router.
 */
import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { pages as archives } from './archives/index.ts';
import { pages as empower } from './empower/index.ts';
import { pages as logs } from './logs/index.ts';
import { pages as notices } from './notices/index.ts';
import { pages as visits } from './visits/index.ts';
import { pages as documentIssues } from './documentIssues/index.ts';
import { pages as problemTypes } from './problemTypes/index.ts';
import { pages as countersign } from './countersign/index.ts';
import { pages as bom } from './bom/index.ts';
import { pages as permissions } from './permissions/index.ts';
import { pages as phoneLog } from './phoneLog/index.ts';
import { pages as notifications } from './notifications/index.ts';

/** A page's first answers fetched ahead of it (api/ahead.ts): at the sign-in, for `target`, the landing page. */
export type FetchAhead = (queryClient: QueryClient, target: URL) => void;

/** A page's module: the page, and the first answers it may have fetched ahead of it. */
export interface PageModule {
  default: ComponentType;
  fetchAhead?: FetchAhead;
}
export type PageLoaders = Record<string, () => Promise<PageModule>>;

export const PAGES: PageLoaders = { ...archives, ...empower, ...logs, ...notices, ...visits, ...documentIssues, ...problemTypes, ...countersign, ...bom, ...permissions, ...phoneLog, ...notifications };
