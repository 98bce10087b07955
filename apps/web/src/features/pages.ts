/**
 * Every built page, by its spec §2 route: each feature declares its own in its index; the router
 * shows the group default page for a route no feature has built yet. The dashboard (a spec chunk
 * of its own) is added by the router.
 */
import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { pages as archives, prefetches as archivePrefetches } from './archives/index.ts';
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

export type PageLoaders = Record<string, () => Promise<{ default: ComponentType }>>;
/** A page's first data calls, started before its chunk has loaded (given the page's query parameters). */
export type PagePrefetches = Record<string, (qc: QueryClient, params: URLSearchParams) => void>;

export const PAGES: PageLoaders = { ...archives, ...empower, ...logs, ...notices, ...visits, ...documentIssues, ...problemTypes, ...countersign, ...bom, ...permissions, ...phoneLog };

/** Landing pages whose first calls start with the page load (app/afterLogin.ts startPortal, issue 16). */
export const PREFETCHES: PagePrefetches = { ...archivePrefetches };
