/**
 * The notices' calls (contracts noticesApi): call → queryOptions → hooks, for the manufacturer's
 * pages, the supplier's pages and the header bell. Writes are called `silent`: the pages show the
 * server's words where the user is looking (a form field, the confirm button's alert).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { archivesApi, noticesApi, type EndpointBody } from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

// ---- manufacturer ---------------------------------------------------------------------------------

// silent: the notice page shows a failure in place of the notice (a toast as well said it twice)
export const noticeDetailQuery = (id: number) =>
  queryOptions({
    queryKey: [noticesApi.detail.path, id],
    queryFn: async () => (await call(noticesApi.detail, { id }, { silent: true })).data,
  });
export const useNoticeDetail = (id: number | undefined) =>
  useQuery({ ...noticeDetailQuery(id ?? 0), enabled: Boolean(id) });

export const useProductLines = () =>
  useQuery({
    queryKey: [archivesApi.productLines.path],
    queryFn: async () => (await call(archivesApi.productLines)).data,
    staleTime: 60_000,
  });

/** Versions that can be the new side of a change: by keyword, or the files named (the version just uploaded). */
export const candidatesQuery = (q: { keyword?: string; ids?: number[] }) =>
  queryOptions({
    queryKey: [noticesApi.candidates.path, q],
    queryFn: async () => (await call(noticesApi.candidates, q)).data,
    staleTime: 10_000,
  });

export type DraftBody = NonNullable<EndpointBody<typeof noticesApi.create>>;
export const createNotice = (body: DraftBody) => call(noticesApi.create, body, { silent: true });
export const updateNotice = (id: number, body: DraftBody) => call(noticesApi.update, { id, ...body }, { silent: true });
export const publishNotice = (id: number) => call(noticesApi.publish, { id }, { silent: true });
export const closeNotice = (id: number) => call(noticesApi.close, { id }, { silent: true });
export const withdrawNotice = (id: number, reason: string) =>
  call(noticesApi.withdraw, { id, reason }, { silent: true });
export const remindNotice = (id: number, supplierCodes?: string[]) =>
  call(noticesApi.remind, { id, supplierCodes }, { silent: true });

/** The recipients matrix as .xlsx, saved by the browser. */
export async function exportRecipients(
  body: NonNullable<EndpointBody<typeof noticesApi.exportRecipients>>,
): Promise<string> {
  const result = await callBlob(noticesApi.exportRecipients, body, { silent: true });
  saveBlob(result);
  return result.fileName;
}

/** After any write every notice list, detail and matrix may have changed. */
export function useRefreshNotices() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [noticesApi.page, noticesApi.detail, noticesApi.recipients, noticesApi.changes].map((e) =>
        qc.invalidateQueries({ queryKey: [e.path] }),
      ),
    );
}

// ---- supplier --------------------------------------------------------------------------------------

/** The bell: refreshed every minute while a page is open, and when the window regains focus. */
export const BELL_REFRESH_MS = 60_000;
export const useUnreadNotices = (enabled: boolean) =>
  useQuery({
    queryKey: [noticesApi.unread.path],
    queryFn: async () => (await call(noticesApi.unread, undefined, { silent: true })).data,
    enabled,
    refetchInterval: BELL_REFRESH_MS,
    refetchOnWindowFocus: true,
  });

/** Opening a notice (marks it read): the bell and the inbox change with it. */
export function useSupplierNotice(id: number | undefined) {
  const qc = useQueryClient();
  return useQuery({
    queryKey: [noticesApi.supplierFind.path, id],
    queryFn: async () => {
      // silent: the page shows a failure in place of the notice, once
      const data = (await call(noticesApi.supplierFind, { id: id! }, { silent: true })).data;
      void qc.invalidateQueries({ queryKey: [noticesApi.unread.path] });
      void qc.invalidateQueries({ queryKey: [noticesApi.inbox.path] });
      return data;
    },
    enabled: Boolean(id),
  });
}

export const confirmNotice = (id: number) => call(noticesApi.confirm, { id }, { silent: true });
