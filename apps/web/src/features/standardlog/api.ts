/** The confidentiality agreement and drawing confirmations of the supplier side (contracts standardlogApi). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { standardlogApi, type ConfirmState } from '@esm/contracts';
import { call } from '../../api/client.ts';

/** Short-lived: a newly published agreement version must be asked for soon after. */
export const keepsecretQuery = queryOptions({
  queryKey: [standardlogApi.hasKeepsecret.path],
  queryFn: async () => (await call(standardlogApi.hasKeepsecret)).data,
  staleTime: 30_000,
});

export const acceptKeepsecret = (agreementId: number) => call(standardlogApi.insertKeepsecret, { agreementId });

export const useConfirmState = (id: number | undefined) =>
  useQuery({
    queryKey: [standardlogApi.hasConfirmLog.path, id],
    queryFn: async () => (await call(standardlogApi.hasConfirmLog, { id: id! })).data,
    enabled: id !== undefined,
  });

/** Confirms one file; answers with its confirmation state. */
export const confirmFile = async (id: number): Promise<ConfirmState> =>
  (await call(standardlogApi.insertConfirmLog, { id })).data;

/** Confirms several files at once (already confirmed ones are counted, not logged again). */
export const confirmFiles = async (ids: number[]) => (await call(standardlogApi.supplierConfirm, { ids })).data;
