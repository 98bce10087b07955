/**
 * The drawing-authorization calls (contracts empowerApi): the supplier's applications and form
 * options, the moves on an application, decisions, revoking, the unauthorized-material tree, the
 * access report and the two Excel exports. Moves are `silent`: the form or dialog that made them
 * shows the refusal where it belongs (a field, or above the form).
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  empowerApi,
  type AccessReportRequest,
  type ApproveRequest,
  type CreateApplyRequest,
  type EndpointBody,
  type UpdateApplyRequest,
} from '@esm/contracts';
import { call, callBlob, saveBlob } from '../../api/client.ts';

// ---- reads -----------------------------------------------------------------------------------------

export const applyOptionsQuery = queryOptions({
  queryKey: [empowerApi.applyOptions.path],
  queryFn: async () => (await call(empowerApi.applyOptions)).data,
});
export const useApplyOptions = () => useQuery(applyOptionsQuery);

/** The audit trail of an application, from the caller's side. */
export const useAudit = (id: number | undefined, side: 'supplier' | 'haier') =>
  useQuery({
    queryKey: [side === 'supplier' ? empowerApi.supplierAudit.path : empowerApi.audit.path, id],
    // silent: the dialog shows a failure in place of the trail (a toast as well said it twice)
    queryFn: async () =>
      (await call(side === 'supplier' ? empowerApi.supplierAudit : empowerApi.audit, { id: id! }, { silent: true }))
        .data,
    enabled: id !== undefined,
  });

export const useUnauthorizedTree = (supplierCode: string | undefined) =>
  useQuery({
    queryKey: [empowerApi.unauthorized.path, supplierCode],
    queryFn: async () => (await call(empowerApi.unauthorized, { supplierCode: supplierCode! })).data,
    enabled: Boolean(supplierCode),
  });

export const useAccessReport = (req: AccessReportRequest | null) =>
  useQuery({
    queryKey: [empowerApi.report.path, req],
    queryFn: async () => (await call(empowerApi.report, req!, { silent: true })).data,
    enabled: req !== null,
    retry: false,
  });

/** After any move every list of the domain may have changed. */
export function useRefreshEmpower() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [
        empowerApi.supplierApplications,
        empowerApi.applyOptions,
        empowerApi.supplierAudit,
        empowerApi.applications,
        empowerApi.audit,
        empowerApi.grants,
        empowerApi.overdue,
        empowerApi.census,
        empowerApi.unauthorized,
      ].map((e) => queryClient.invalidateQueries({ queryKey: [e.path] })),
    );
}

// ---- moves -------------------------------------------------------------------------------------------

export const createApply = async (body: CreateApplyRequest) =>
  (await call(empowerApi.createApply, body, { silent: true })).data;
export const updateApply = async (body: UpdateApplyRequest) =>
  (await call(empowerApi.updateApply, body, { silent: true })).data;
export const deleteApply = (id: number) => call(empowerApi.deleteApply, { id }, { silent: true });
export const submitApply = async (id: number) => (await call(empowerApi.submitApply, { id }, { silent: true })).data;
export const withdrawApply = (id: number, comment?: string) =>
  call(empowerApi.withdrawApply, { id, comment }, { silent: true });
export const decideApplications = (body: ApproveRequest) => call(empowerApi.approve, body, { silent: true });
export const revokeGrant = (id: number, reason: string) => call(empowerApi.revoke, { id, reason }, { silent: true });

// ---- exports ------------------------------------------------------------------------------------------

export type CensusExportRequest = NonNullable<EndpointBody<typeof empowerApi.censusExcel>>;

export async function exportCensus(req: CensusExportRequest): Promise<string> {
  const file = await callBlob(empowerApi.censusExcel, req, { silent: true });
  saveBlob(file);
  return file.fileName;
}

export async function exportReport(req: AccessReportRequest): Promise<string> {
  const file = await callBlob(empowerApi.reportExcel, req, { silent: true });
  saveBlob(file);
  return file.fileName;
}
