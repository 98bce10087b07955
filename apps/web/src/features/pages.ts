/**
 * Every built page's component, by its key in the contracts' PAGES (which holds its path, title and
 * menu row): a feature's `pages/<key>.tsx`, found here by its file name, loaded when first opened.
 * A page PAGES marks `groupDefault` has none: the router shows its group's default page.
 */
import type { ComponentType } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { PageKey } from '@esm/contracts/basics';
import { pages as logs } from './logs/index.ts';

/** A page's first answers fetched ahead of it (api/ahead.ts): at the sign-in, for `target`, the landing page. */
export type FetchAhead = (queryClient: QueryClient, target: URL) => void;

/** A page's module: the page, and the first answers it may have fetched ahead of it. */
export interface PageModule {
  default: ComponentType;
  fetchAhead?: FetchAhead;
}
export type PageLoaders = Partial<Record<PageKey, () => Promise<PageModule>>>;

/** features/<feature>/pages/<key>.tsx, by key. */
const pageFiles: PageLoaders = Object.fromEntries(
  Object.entries(import.meta.glob<PageModule>('./*/pages/*.tsx')).map(([file, load]) => [
    file.slice(file.lastIndexOf('/') + 1, -'.tsx'.length),
    load,
  ]),
);

/** The page files, and the pages that share one component (the five log pages). */
export const PAGE_MODULES: PageLoaders = { ...pageFiles, ...logs };
