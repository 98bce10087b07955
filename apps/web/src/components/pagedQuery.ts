/**
 * PagedTable's query, in a module of its own (no antd): a page's first list call can then be asked
 * for while the page's chunk is still loading (features/pages.ts PREFETCH, app/afterLogin.ts
 * startPortal — issue 16: the landing page's rows used to be asked for only after its first render).
 */
import { hashKey, type QueryClient } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT, type EndpointBody, type EndpointDef, type PagedEnvelope, type SortOrder } from '@esm/contracts';
import { call } from '../api/client.ts';

/** The paging part of a paged request (design §5). */
export interface PagingState {
  results: number;
  page: number;
  sort: { field?: string; order?: SortOrder };
}

export const FIRST_PAGE: PagingState = { results: PAGE_SIZE_DEFAULT, page: 1, sort: {} };

/** The body of a paged call: paging, sort (both or none) and the filters. */
export const pagedRequest = (filters: object, { results, page, sort }: PagingState) => ({
  results,
  page,
  ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}),
  ...filters,
});

/** The table's cache key: the call's path and its body. */
export const pagedQueryKey = (endpoint: EndpointDef, request: object) => [endpoint.path, request] as const;

/** First pages asked for ahead of their table, by query hash, until that table has mounted. */
const prefetched = new Set<string>();

/** How long a first page fetched ahead counts as fresh for the table it was fetched for. */
const PREFETCH_FRESH_MS = 10_000;

/**
 * The table's `staleTime`: 0 as always (a list is asked for again on every visit), except a first
 * page fetched ahead for the table now mounting — that one is not fetched twice.
 */
export const pagedStaleTime = (query: { queryHash: string }) => (prefetched.has(query.queryHash) ? PREFETCH_FRESH_MS : 0);

/** The table has mounted on `queryKey`: from now on its list is stale at once again. */
export function prefetchUsed(queryKey: readonly unknown[]) {
  prefetched.delete(hashKey(queryKey));
}

/**
 * The first page of `endpoint` with `filters`, as the table will ask for it, fetched now. Silent:
 * a refusal (a page not in the user's menu) is shown by the page itself, and a failed fetch is
 * dropped so that the table asks again as it would have.
 */
export function prefetchFirstPage<E extends EndpointDef>(qc: QueryClient, endpoint: E, filters: object) {
  const request = pagedRequest(filters, FIRST_PAGE);
  const queryKey = pagedQueryKey(endpoint, request);
  const hash = hashKey(queryKey);
  if (qc.getQueryData(queryKey) !== undefined) return;
  prefetched.add(hash);
  qc.fetchQuery({ queryKey, queryFn: () => call(endpoint, request as EndpointBody<E>, { silent: true }) as Promise<PagedEnvelope<unknown>> }).catch(() => {
    prefetched.delete(hash);
    if (!qc.getQueryCache().find({ queryKey, exact: true })?.getObserversCount()) qc.removeQueries({ queryKey, exact: true });
  });
}
