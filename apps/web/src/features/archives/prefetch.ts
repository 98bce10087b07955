/**
 * The archive browser's first calls, asked for while its chunk loads (issue 16: 档案信息 is the
 * internal users' landing page): the page's buttons and columns and the table's first page, with
 * the filters the browser starts with (fileFilters.ts) — the same cache keys its components use.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ARCHIVE_PAGE, archivesApi } from '@esm/contracts';
import { prefetchFirstPage } from '../../components/pagedQuery.ts';
import { prefetchPagePermissions } from '../permissions/index.ts';
import { browserFilters, presetFilters } from './fileFilters.ts';

export function prefetchArchiveBrowser(qc: QueryClient, params: URLSearchParams) {
  prefetchPagePermissions(qc, ARCHIVE_PAGE, archivesApi.files.columns?.page);
  prefetchFirstPage(qc, archivesApi.files, browserFilters(presetFilters(params), undefined));
}
