/**
 * The notifications' calls (contracts notificationsApi): the header bell and the centre page.
 * Marking read refreshes both.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsApi as api } from '@esm/contracts';
import { call } from '../../api/client.ts';

/** The bell: refreshed every minute while a page is open, and when the window regains focus. */
export const BELL_REFRESH_MS = 60_000;

export const useNotificationBell = () =>
  useQuery({
    queryKey: [api.bell.path],
    queryFn: async () => (await call(api.bell, undefined, { silent: true })).data,
    refetchInterval: BELL_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

/** Marks the named notifications (or all: no ids) read, then refreshes the bell and the list. */
export function useMarkRead() {
  const qc = useQueryClient();
  return async (ids?: number[]) => {
    const res = await call(api.markRead, ids ? { ids } : {}, { silent: true });
    await Promise.all([qc.invalidateQueries({ queryKey: [api.bell.path] }), qc.invalidateQueries({ queryKey: [api.page.path] })]);
    return res.data.marked;
  };
}
