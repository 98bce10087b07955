/**
 * The supplier picker's search (a RemoteSelect source), shared by every feature that filters or
 * chooses by supplier: the archives' supplier list, up to 20 matches a keyword.
 */
import { archivesApi } from '@esm/contracts';
import { call } from '../api/client.ts';
import type { RemoteSource } from './RemoteSelect.tsx';

export const supplierSource: RemoteSource = {
  key: archivesApi.suppliers.path,
  notFound: '没有匹配的供应商',
  search: async (keyword) =>
    (await call(archivesApi.suppliers, { keyword: keyword || undefined, results: 20 })).data.map((s) => ({
      value: s.code,
      label: `${s.code} ${s.name}`,
    })),
};
