/**
 * The notices' calls (contracts noticesApi): call → queryOptions → hooks, for the manufacturer's
 * pages, the supplier's pages and the header bell. Writes are called `silent`: the pages show the
 * server's words where the user is looking (a form field, the confirm button's alert).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { archivesApi, noticesApi as api, type EndpointBody } from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

// ---- manufacturer ---------------------------------------------------------------------------------

// silent: the notice page shows a failure in place of the notice (a toast as well said it twice)
export const noticeDetailQuery = (id: number) => queryOptions({ queryKey: [api.detail.path, id], queryFn: async () => (await call(api.detail, { id }, { silent: true })).data });
export const useNoticeDetail = (id: number | undefined) => useQuery({ ...noticeDetailQuery(id ?? 0), enabled: Boolean(id) });

export const useProductLines = () => useQuery({ queryKey: [archivesApi.productLines.path], queryFn: async () => (await call(archivesApi.productLines)).data, staleTime: 60_000 });

/** Versions that can be the new side of a change: by keyword, or the files named (the version just uploaded). */
export const candidatesQuery = (q: { keyword?: string; ids?: number[] }) =>
  queryOptions({ queryKey: [api.candidates.path, q], queryFn: async () => (await call(api.candidates, q)).data, staleTime: 10_000 });

export type DraftBody = NonNullable<EndpointBody<typeof api.create>>;
export const createNotice = (body: DraftBody) => call(api.create, body, { silent: true });
export const updateNotice = (id: number, body: DraftBody) => call(api.update, { id, ...body }, { silent: true });
export const publishNotice = (id: number) => call(api.publish, { id }, { silent: true });
export const closeNotice = (id: number) => call(api.close, { id }, { silent: true });
export const withdrawNotice = (id: number, reason: string) => call(api.withdraw, { id, reason }, { silent: true });
export const remindNotice = (id: number, supplierCodes?: string[]) => call(api.remind, { id, supplierCodes }, { silent: true });

/** The recipients matrix as .xlsx, saved by the browser. */
export async function exportRecipients(body: NonNullable<EndpointBody<typeof api.exportRecipients>>): Promise<string> {
  const result = await callBlob(api.exportRecipients, body, { silent: true });
  saveBlob(result);
  return result.fileName;
}

/** After any write every notice list, detail and matrix may have changed. */
export function useRefreshNotices() {
  const qc = useQueryClient();
  return () => Promise.all([api.page, api.detail, api.recipients, api.changes].map((e) => qc.invalidateQueries({ queryKey: [e.path] })));
}

// ---- supplier --------------------------------------------------------------------------------------

/** The bell: refreshed every minute while a page is open, and when the window regains focus. */
export const BELL_REFRESH_MS = 60_000;
export const useUnreadNotices = (enabled: boolean) =>
  useQuery({
    queryKey: [api.unread.path],
    queryFn: async () => (await call(api.unread, undefined, { silent: true })).data,
    enabled,
    refetchInterval: BELL_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

/** Opening a notice (marks it read): the bell and the inbox change with it. */
export function useSupplierNotice(id: number | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: [api.supplierFind.path, id],
    queryFn: async () => {
      // silent: the page shows a failure in place of the notice, once
      const data = (await call(api.supplierFind, { id: id! }, { silent: true })).data;
      void qc.invalidateQueries({ queryKey: [api.unread.path] });
      void qc.invalidateQueries({ queryKey: [api.inbox.path] });
      return data;
    },
    enabled: Boolean(id),
  });
}

export const confirmNotice = (id: number) => call(api.confirm, { id }, { silent: true });
