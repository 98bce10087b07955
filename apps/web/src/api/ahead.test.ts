import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { ahead, quietAhead, unlessFetchedAhead } from './ahead.ts';

/** A query whose function records the call options it would pass (quietAhead of its meta). */
function recorded(key: string) {
  const calls: { silent?: boolean }[] = [];
  return { calls, options: { queryKey: [key], queryFn: async ({ meta }: { meta?: Record<string, unknown> }) => (calls.push(quietAhead(meta)), calls.length) } };
}

const queryOf = (client: QueryClient, key: string) => client.getQueryCache().find({ queryKey: [key], exact: true })!;

describe('answers fetched ahead of their page', () => {
  it('fetches silently ahead, and a page mounting at once keeps the answer without asking again', async () => {
    const client = new QueryClient();
    const q = recorded('list-a');
    ahead(client, q.options);
    await client.getQueryCache().find({ queryKey: ['list-a'] })!.promise;
    expect(q.calls).toEqual([{ silent: true }]);
    expect(unlessFetchedAhead(queryOf(client, 'list-a'))).toBe(false);

    // the page mounts: its observer takes the answer as it is
    const observer = new QueryObserver(client, { ...q.options, refetchOnMount: unlessFetchedAhead });
    const unsubscribe = observer.subscribe(() => {});
    expect(observer.getCurrentResult().data).toBe(1);
    expect(observer.getCurrentResult().isFetching).toBe(false);
    expect(q.calls).toHaveLength(1);
    unsubscribe();
  });

  it('asks again on mount after an invalidation, for a query never fetched ahead, and not silently', async () => {
    const client = new QueryClient();
    const q = recorded('list-b');
    ahead(client, q.options);
    await queryOf(client, 'list-b').promise;
    await client.invalidateQueries({ queryKey: ['list-b'] });
    expect(unlessFetchedAhead(queryOf(client, 'list-b'))).toBe(true);

    const other = recorded('list-c');
    await client.fetchQuery(other.options);
    expect(unlessFetchedAhead(queryOf(client, 'list-c'))).toBe(true);
    expect(other.calls).toEqual([{ silent: false }]);

    // a page's own fetch of the query fetched ahead is not silent
    const observer = new QueryObserver(client, { ...q.options, refetchOnMount: unlessFetchedAhead });
    const unsubscribe = observer.subscribe(() => {});
    await queryOf(client, 'list-b').promise;
    expect(q.calls).toEqual([{ silent: true }, { silent: false }]);
    unsubscribe();
  });
});
