/**
 * The notifications' calls (contracts notificationsApi): the header bell and the centre page.
 * Marking read refreshes both.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notificationsApi, type EndpointBody } from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

/** The bell: refreshed every minute while a page is open, and when the window regains focus. */
export const BELL_REFRESH_MS = 60_000;

export const useNotificationBell = () =>
  useQuery({
    queryKey: [notificationsApi.bell.path],
    queryFn: async () => (await call(notificationsApi.bell, undefined, { silent: true })).data,
    refetchInterval: BELL_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

/** Marks the named notifications (or all: no ids) read, then refreshes the bell and the list. */
export function useMarkRead() {
  const qc = useQueryClient();
  return async (ids?: number[]) => {
    const res = await call(notificationsApi.markRead, ids ? { ids } : {}, { silent: true });
    await Promise.all([
      qc.invalidateQueries({ queryKey: [notificationsApi.bell.path] }),
      qc.invalidateQueries({ queryKey: [notificationsApi.page.path] }),
    ]);
    return res.data.marked;
  };
}

/** The delivery log as .xlsx with the page's filters, saved by the browser. */
export async function exportDeliveries(
  body: NonNullable<EndpointBody<typeof notificationsApi.exportExcel>>,
): Promise<string> {
  const result = await callBlob(notificationsApi.exportExcel, body, { silent: true });
  saveBlob(result);
  return result.fileName;
}
