/**
 * The questions' calls (contracts documentIssuesApi): call → queryOptions → hooks, for the
 * supplier's page and the answerers' page. Writes are `silent`: the form or the thread that made
 * them shows the server's words where the user is looking.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { documentIssuesApi, problemTypesApi, type AttachmentRow, type EndpointBody } from '@esm/contracts';
import { call, callBlob, callMultipart, saveBlob } from '../../api/client.ts';
import { quietAhead } from '../../api/ahead.ts';

export type Side = 'supplier' | 'haier';

export const useIssue = (side: Side, id: number | undefined) =>
  useQuery({
    queryKey: [side === 'supplier' ? documentIssuesApi.supplierFind.path : documentIssuesApi.find.path, id],
    // silent: the thread shows a failure in place of the question (a toast as well said it twice)
    queryFn: async () =>
      (
        await call(
          side === 'supplier' ? documentIssuesApi.supplierFind : documentIssuesApi.find,
          { id: id! },
          { silent: true },
        )
      ).data,
    enabled: id !== undefined,
  });

/** One question now (e.g. a draft to edit from its row). */
export const fetchIssue = async (side: Side, id: number) =>
  (await call(side === 'supplier' ? documentIssuesApi.supplierFind : documentIssuesApi.find, { id })).data;

export const useProblemTypeOptions = () =>
  useQuery({
    queryKey: [problemTypesApi.supplierList.path],
    queryFn: async () => (await call(problemTypesApi.supplierList)).data,
  });
export const allProblemTypesQuery = {
  queryKey: [problemTypesApi.page.path, 'all'],
  queryFn: async ({ meta }: { meta?: Record<string, unknown> }) =>
    (await call(problemTypesApi.page, { results: 100 }, quietAhead(meta))).data,
  staleTime: 60_000,
};
export const useAllProblemTypes = () => useQuery(allProblemTypesQuery);
export const useHandlers = () =>
  useQuery({
    queryKey: [documentIssuesApi.handlers.path],
    queryFn: async () => (await call(documentIssuesApi.handlers)).data,
    staleTime: 60_000,
  });
export const useDrawings = (keyword: string) =>
  useQuery({
    queryKey: [documentIssuesApi.drawings.path, keyword],
    queryFn: async () => (await call(documentIssuesApi.drawings, { keyword })).data,
    staleTime: 30_000,
  });
export const usePurchasers = (materialCode: string | undefined) =>
  useQuery({
    queryKey: [documentIssuesApi.purchasers.path, materialCode],
    queryFn: async () => (await call(documentIssuesApi.purchasers, { materialCode: materialCode! })).data,
    enabled: Boolean(materialCode),
  });

export type DraftBody = NonNullable<EndpointBody<typeof documentIssuesApi.add>>;
export const addIssue = (body: DraftBody) => call(documentIssuesApi.add, body, { silent: true });
export const updateIssue = (id: number, body: DraftBody) =>
  call(documentIssuesApi.update, { id, ...body }, { silent: true });
export const submitIssue = (id: number) => call(documentIssuesApi.submit, { id }, { silent: true });
export const deleteIssues = (ids: number[]) => call(documentIssuesApi.removeMany, { ids }, { silent: true });
export const closeIssue = (id: number) => call(documentIssuesApi.close, { id }, { silent: true });
export const reopenIssue = (id: number, text: string, attachmentIds: number[]) =>
  call(documentIssuesApi.reopen, { id, text, attachmentIds }, { silent: true });
export const assignIssue = (id: number, userId: number, reason?: string) =>
  call(documentIssuesApi.assign, { id, userId, reason }, { silent: true });
export const replyIssue = (id: number, text: string, attachmentIds: number[], noticeId?: number) =>
  call(documentIssuesApi.reply, { id, text, attachmentIds, noticeId }, { silent: true });

/** Uploads one attachment with progress (0–100). */
export async function uploadAttachment(
  side: Side,
  file: File,
  onPercent: (p: number) => void,
  signal?: AbortSignal,
): Promise<AttachmentRow> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await callMultipart(
    side === 'supplier' ? documentIssuesApi.supplierUpload : documentIssuesApi.upload,
    form,
    { silent: true, signal, onProgress: (sent, total) => onPercent(Math.floor((sent / total) * 100)) },
  );
  return res.data;
}

export async function downloadAttachment(side: Side, id: number): Promise<string> {
  const result = await callBlob(
    side === 'supplier' ? documentIssuesApi.supplierDownload : documentIssuesApi.download,
    { id },
    { silent: true },
  );
  saveBlob(result);
  return result.fileName;
}

/** After any move every list and thread of the domain may have changed. */
export function useRefreshIssues() {
  const qc = useQueryClient();
  return () =>
    Promise.all(
      [
        documentIssuesApi.supplierPage,
        documentIssuesApi.supplierFind,
        documentIssuesApi.page,
        documentIssuesApi.find,
      ].map((e) => qc.invalidateQueries({ queryKey: [e.path] })),
    );
}
