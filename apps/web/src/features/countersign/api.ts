/**
 * The countersign calls (contracts countersignApi): call → queryOptions → hooks, for both sides.
 * Writes are called `silent`: the pages show the server's words where the user is looking (a form
 * field, the sign dialog, a toast).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { countersignApi, noticesApi, type CountersignSubmit, type EndpointBody } from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

export type Side = 'internal' | 'supplier';

export const detailQuery = (side: Side, id: number) =>
  queryOptions({
    queryKey: [side === 'internal' ? countersignApi.detail.path : countersignApi.supplierDetail.path, id],
    // silent: the drawer shows a failure in place of the list (a toast as well said it twice)
    queryFn: async () =>
      (
        await call(
          side === 'internal' ? countersignApi.detail : countersignApi.supplierDetail,
          { id },
          { silent: true },
        )
      ).data,
  });
export const useCountersign = (side: Side, id: number | undefined) =>
  useQuery({ ...detailQuery(side, id ?? 0), enabled: Boolean(id) });

/** The form's pickers: internal countersigners, archive file versions (with sha256), published notices. */
export const signersQuery = (keyword: string) =>
  queryOptions({
    queryKey: [countersignApi.signers.path, keyword],
    queryFn: async () => (await call(countersignApi.signers, { keyword: keyword || undefined })).data,
    staleTime: 60_000,
  });
export const filesQuery = (q: { keyword?: string; ids?: number[]; supplierCode?: string }) =>
  queryOptions({
    queryKey: [countersignApi.files.path, q],
    queryFn: async () => (await call(countersignApi.files, q)).data,
    staleTime: 10_000,
  });
/** Published notices, those that went to `recipientCode` when a supplier is chosen (a list may link only those). */
export const publishedNoticesQuery = (keyword: string, recipientCode?: string) =>
  queryOptions({
    queryKey: [noticesApi.page.path, 'published', keyword, recipientCode],
    queryFn: async () =>
      (
        await call(noticesApi.page, {
          status: 'PUBLISHED',
          title: keyword || undefined,
          recipientCode,
          results: 20,
          sortField: 'publishedAt',
          sortOrder: 'descend',
        })
      ).data,
    staleTime: 30_000,
  });

export type DraftBody = NonNullable<EndpointBody<typeof countersignApi.create>>;
export const createCountersign = (body: DraftBody) => call(countersignApi.create, body, { silent: true });
export const updateCountersign = (id: number, body: DraftBody) =>
  call(countersignApi.update, { id, ...body }, { silent: true });
export const issueCountersign = (id: number) => call(countersignApi.issue, { id }, { silent: true });
export const cancelCountersign = (id: number, reason: string) =>
  call(countersignApi.cancel, { id, reason }, { silent: true });
export const submitSignature = (side: Side, body: CountersignSubmit) =>
  call(side === 'internal' ? countersignApi.sign : countersignApi.submit, body, { silent: true });

/** The caller's stamped copy of the sign-off sheet, saved by the browser; resolves its name. */
export async function downloadSheet(side: Side, id: number): Promise<string> {
  const result = await callBlob(
    side === 'internal' ? countersignApi.sheet : countersignApi.supplierSheet,
    { id },
    { silent: true },
  );
  saveBlob(result);
  return result.fileName;
}

/** After any write every countersign list and detail may have changed. */
export function useRefreshCountersign() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [countersignApi.page, countersignApi.detail, countersignApi.supplierPage, countersignApi.supplierDetail].map(
        (e) => qc.invalidateQueries({ queryKey: [e.path] }),
      ),
    );
}
