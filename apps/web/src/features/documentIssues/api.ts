/**
 * The questions' calls (contracts documentIssuesApi): call → queryOptions → hooks, for the
 * supplier's page and the answerers' page. Writes are `silent`: the form or the thread that made
 * them shows the server's words where the user is looking.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { documentIssuesApi as api, problemTypesApi, type AttachmentRow, type EndpointBody } from '@esm/contracts';
import { call, callBlob, callMultipart, saveBlob } from '../../api/client.ts';
import { quietAhead } from '../../api/ahead.ts';

export type Side = 'supplier' | 'haier';

export const useIssue = (side: Side, id: number | undefined) =>
  useQuery({
    queryKey: [side === 'supplier' ? api.supplierFind.path : api.find.path, id],
    // silent: the thread shows a failure in place of the question (a toast as well said it twice)
    queryFn: async () => (await call(side === 'supplier' ? api.supplierFind : api.find, { id: id! }, { silent: true })).data,
    enabled: id !== undefined,
  });

/** One question now (e.g. a draft to edit from its row). */
export const fetchIssue = async (side: Side, id: number) => (await call(side === 'supplier' ? api.supplierFind : api.find, { id })).data;

export const useProblemTypeOptions = () => useQuery({ queryKey: [problemTypesApi.supplierList.path], queryFn: async () => (await call(problemTypesApi.supplierList)).data });
export const allProblemTypesQuery = {
  queryKey: [problemTypesApi.page.path, 'all'],
  queryFn: async ({ meta }: { meta?: Record<string, unknown> }) => (await call(problemTypesApi.page, { results: 100 }, quietAhead(meta))).data,
  staleTime: 60_000,
};
export const useAllProblemTypes = () => useQuery(allProblemTypesQuery);
export const useHandlers = () => useQuery({ queryKey: [api.handlers.path], queryFn: async () => (await call(api.handlers)).data, staleTime: 60_000 });
export const useDrawings = (keyword: string) =>
  useQuery({ queryKey: [api.drawings.path, keyword], queryFn: async () => (await call(api.drawings, { keyword })).data, staleTime: 30_000 });
export const usePurchasers = (materialCode: string | undefined) =>
  useQuery({ queryKey: [api.purchasers.path, materialCode], queryFn: async () => (await call(api.purchasers, { materialCode: materialCode! })).data, enabled: Boolean(materialCode) });

export type DraftBody = NonNullable<EndpointBody<typeof api.add>>;
export const addIssue = (body: DraftBody) => call(api.add, body, { silent: true });
export const updateIssue = (id: number, body: DraftBody) => call(api.update, { id, ...body }, { silent: true });
export const submitIssue = (id: number) => call(api.submit, { id }, { silent: true });
export const deleteIssues = (ids: number[]) => call(api.removeMany, { ids }, { silent: true });
export const closeIssue = (id: number) => call(api.close, { id }, { silent: true });
export const reopenIssue = (id: number, text: string, attachmentIds: number[]) => call(api.reopen, { id, text, attachmentIds }, { silent: true });
export const assignIssue = (id: number, userId: number, reason?: string) => call(api.assign, { id, userId, reason }, { silent: true });
export const replyIssue = (id: number, text: string, attachmentIds: number[], noticeId?: number) => call(api.reply, { id, text, attachmentIds, noticeId }, { silent: true });

/** Uploads one attachment with progress (0–100). */
export async function uploadAttachment(side: Side, file: File, onPercent: (p: number) => void, signal?: AbortSignal): Promise<AttachmentRow> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await callMultipart(side === 'supplier' ? api.supplierUpload : api.upload, form, { silent: true, signal, onProgress: (sent, total) => onPercent(Math.floor((sent / total) * 100)) });
  return res.data;
}

export async function downloadAttachment(side: Side, id: number): Promise<string> {
  const result = await callBlob(side === 'supplier' ? api.supplierDownload : api.download, { id }, { silent: true });
  saveBlob(result);
  return result.fileName;
}

/** After any move every list and thread of the domain may have changed. */
export function useRefreshIssues() {
  const qc = useQueryClient();
  return () => Promise.all([api.supplierPage, api.supplierFind, api.page, api.find].map((e) => qc.invalidateQueries({ queryKey: [e.path] })));
}
