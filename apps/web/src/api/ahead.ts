/**
 * A page's first answers fetched before the page is on screen: at the sign-in, the
 * landing page's calls go out with its code instead of after its first render, so the page renders
 * with its rows and never shows a spinner (which the legacy portal keeps 200 ms after loading ends).
 *
 * A page module exports `fetchAhead(queryClient, target)` asking, through `ahead()`, exactly the
 * queries (same keys) its first render asks; the page's queries pass `refetchOnMount:
 * unlessFetchedAhead`, so the answer fetched a moment ago is not asked again when the page mounts.
 * Any later mount asks as before.
 */
import { hashKey, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, report, type RequestOptions } from './client.ts';

/** An answer fetched ahead is taken as it is by a page mounting within this long. */
const AHEAD_FRESH_MS = 10_000;

/** The queries ever fetched ahead (query hashes; a handful per sign-in). */
const fetched = new Set<string>();

/**
 * Fetches `options` ahead of its page. A failure is silent when the query's function passes
 * `quietAhead(meta)` to its call: the page's own query asks again when it mounts (react-query
 * retries a failed query on mount) and shows the error once. A page that mounted while the fetch
 * was still on its way waits on this fetch instead of asking again: its failure is reported then.
 */
export function ahead<T, K extends QueryKey>(
  queryClient: QueryClient,
  options: FetchQueryOptions<T, Error, T, K>,
): void {
  fetched.add(hashKey(options.queryKey));
  void queryClient.prefetchQuery({ ...options, meta: { ...options.meta, ahead: true } }).then(() => {
    const query = queryClient.getQueryCache().find({ queryKey: options.queryKey, exact: true });
    if (query?.state.status === 'error' && query.getObserversCount() > 0 && query.state.error instanceof ApiError)
      report(query.state.error);
  });
}

/** The call options of a query's function: no error toast when it runs ahead of its page. */
export const quietAhead = (meta: Record<string, unknown> | undefined): RequestOptions => ({
  silent: meta?.ahead === true,
});

/**
 * `refetchOnMount` of a query a page may have fetched ahead: a mount keeps an answer fetched ahead
 * less than AHEAD_FRESH_MS ago (and not invalidated since); any other answer is refetched on mount,
 * as react-query's default does. Not a one-shot flag: react-query asks this during render as well
 * as when the query subscribes.
 */
export function unlessFetchedAhead(query: {
  queryHash: string;
  state: { isInvalidated: boolean; dataUpdatedAt: number };
}): boolean {
  if (!fetched.has(query.queryHash) || query.state.isInvalidated) return true;
  return Date.now() - query.state.dataUpdatedAt > AHEAD_FRESH_MS;
}
