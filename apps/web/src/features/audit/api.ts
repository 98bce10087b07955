import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  HEADS_FILE_KIND,
  auditApi,
  type DayHead,
  type DayHeadsRequest,
  type SubjectEvidenceRequest,
} from '@esm/contracts';
import { call, callBlob, callMultipart, saveBlob } from '../../api/client.ts';

export const useAuditStatus = () =>
  useQuery({ queryKey: [auditApi.status.path], queryFn: async () => (await call(auditApi.status)).data.last });

export const useDayHeads = (req: DayHeadsRequest) =>
  useQuery({
    queryKey: [auditApi.dayHeads.path, req],
    queryFn: async () => (await call(auditApi.dayHeads, req, { silent: true })).data,
    retry: false,
  });

/** Runs a verification; the page's last verification is refreshed with it. */
export function useVerifyNow() {
  const queryClient = useQueryClient();
  return async () => {
    const res = await call(auditApi.verify, undefined, { silent: true });
    queryClient.setQueryData([auditApi.status.path], res.data);
    return res.message ?? '';
  };
}

/** The day heads as the file `pnpm audit:verify --heads FILE` reads; returns its name. */
export function exportHeads(from: string, to: string, heads: readonly DayHead[]): string {
  const fileName = `audit-heads-${from}_${to}.json`;
  const body = JSON.stringify({ kind: HEADS_FILE_KIND, exportedAt: new Date().toISOString(), heads }, null, 1);
  saveBlob({ blob: new Blob([body], { type: 'application/json' }), fileName, type: 'application/json' });
  return fileName;
}

/** 泄露追溯 by the code typed in. */
export const traceByCode = async (code: string) => (await call(auditApi.traceCode, { code }, { silent: true })).data;

/** 泄露追溯 by the PDF found outside. */
export async function traceByFile(file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return (await callMultipart(auditApi.traceFile, form, { silent: true })).data;
}

/** 证据包: a supplier's rows on a material or drawing, as one ZIP; saved, its name returned. */
export async function exportSubjectEvidence(req: SubjectEvidenceRequest): Promise<string> {
  const file = await callBlob(auditApi.subjectEvidence, req, { silent: true });
  saveBlob(file);
  return file.fileName;
}

/** 证据包 of a change notice. */
export async function exportNoticeEvidence(id: number): Promise<string> {
  const file = await callBlob(auditApi.noticeEvidence, { id }, { silent: true });
  saveBlob(file);
  return file.fileName;
}
