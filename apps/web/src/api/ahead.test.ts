import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { ahead, quietAhead, unlessFetchedAhead } from './ahead.ts';
import { ApiError } from './client.ts';
import { feedback } from './feedback.ts';

/** A query whose function records the call options it would pass (quietAhead of its meta). */
function recorded(key: string) {
  const calls: { silent?: boolean }[] = [];
  return {
    calls,
    options: {
      queryKey: [key],
      queryFn: async ({ meta }: { meta?: Record<string, unknown> }) => (calls.push(quietAhead(meta)), calls.length),
    },
  };
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

  describe('a failure', () => {
    const toasts = vi.fn();
    afterEach(() => {
      toasts.mockReset();
      feedback.message = undefined;
    });
    /** A query whose call is refused (500) after `gate` opens, silently when fetched ahead. */
    function refused(key: string) {
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const silent: boolean[] = [];
      const options = {
        queryKey: [key],
        queryFn: async ({ meta }: { meta?: Record<string, unknown> }): Promise<number> => {
          silent.push(quietAhead(meta).silent === true);
          await gate;
          throw new ApiError(500, '500', '列表查询失败', `/esm-server/api/${key}`);
        },
      };
      return { options, open, silent };
    }
    const settled = (client: QueryClient, key: string) =>
      vi.waitFor(() => expect(queryOf(client, key).state.fetchStatus).toBe('idle'));

    it('is toasted once when the page mounted while the fetch ahead was on its way', async () => {
      feedback.message = { error: toasts } as unknown as typeof feedback.message;
      const client = new QueryClient();
      const q = refused('list-d');
      ahead(client, q.options);
      // the page mounts before the answer: it waits on the fetch ahead, no second call
      const observer = new QueryObserver(client, { ...q.options, refetchOnMount: unlessFetchedAhead, retry: false });
      const unsubscribe = observer.subscribe(() => {});
      q.open();
      await settled(client, 'list-d');
      await vi.waitFor(() => expect(toasts).toHaveBeenCalledTimes(1));
      expect(q.silent).toEqual([true]);
      expect(observer.getCurrentResult().isError).toBe(true);
      unsubscribe();
    });

    it('is not toasted with no page waiting: the page asks again, loudly, when it mounts', async () => {
      feedback.message = { error: toasts } as unknown as typeof feedback.message;
      const client = new QueryClient();
      const q = refused('list-e');
      ahead(client, q.options);
      q.open();
      await settled(client, 'list-e');
      await Promise.resolve();
      expect(toasts).not.toHaveBeenCalled();
      expect(unlessFetchedAhead(queryOf(client, 'list-e'))).toBe(true);
      const observer = new QueryObserver(client, { ...q.options, refetchOnMount: unlessFetchedAhead, retry: false });
      const unsubscribe = observer.subscribe(() => {});
      await settled(client, 'list-e');
      expect(q.silent).toEqual([true, false]);
      unsubscribe();
    });
  });
});
