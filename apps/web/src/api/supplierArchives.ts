/**
 * The supplier side of the drawing archives (issue 3, spec §7 supplier/*): the files a supplier
 * may see, its tree, its grant per material, the confidentiality agreement and confirmations.
 * The server scopes every call to the caller's own supplier; nothing here widens that.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  MaterialPagerRequest,
  MaterialRow,
  PagedEnvelope,
  ProductLine,
  StandardFileRow,
  SupplierFilePagerRequest,
  ZHasConfirmResponseSchema,
  ZHasEmpowerResponseSchema,
  ZHasKeepsecretResponseSchema,
  ZSupplierConfirmResponseSchema,
} from '@esm/contracts';
import { post } from './client.ts';

export type Empower = z.infer<typeof ZHasEmpowerResponseSchema>['data'];
export type KeepsecretState = z.infer<typeof ZHasKeepsecretResponseSchema>['data'];
export type ConfirmState = z.infer<typeof ZHasConfirmResponseSchema>['data'];
export type ConfirmResult = z.infer<typeof ZSupplierConfirmResponseSchema>['data'];

/** sortField comes from the table's columns; the server checks it against its list. */
type Paged<R> = Omit<R, 'sortField'> & { sortField?: string };

// ---- tree ------------------------------------------------------------------------------------

export const fetchProductLines = () => post<ProductLine[]>('supplier/standardFile/selectProductType').then((r) => r.data);

export const fetchMaterials = (req: Paged<MaterialPagerRequest>) => post<MaterialRow[], PagedEnvelope<MaterialRow>>('supplier/standardFile/getMaterialPager', req);

export const productLinesQuery = queryOptions({ queryKey: ['supplier', 'productLines'], queryFn: fetchProductLines, staleTime: 60_000 });
export const useProductLines = () => useQuery(productLinesQuery);

// ---- files -----------------------------------------------------------------------------------

/** Effective files of the materials the supplier supplies and holds a valid grant for. */
export const fetchSupplierFiles = (req: Paged<SupplierFilePagerRequest>) =>
  post<StandardFileRow[], PagedEnvelope<StandardFileRow>>('supplier/standardFile/getStandardFilePager', req);

/** Earlier versions of those materials' files. */
export const fetchSupplierHistoryFiles = (req: Paged<SupplierFilePagerRequest>) =>
  post<StandardFileRow[], PagedEnvelope<StandardFileRow>>('supplier/supplierDrawingFileInfomation/searchByMaterialHistory', req);

export const fetchEmpower = (materialCode: string) => post<Empower>('supplier/standardFile/hasEmpower', { materialCode }).then((r) => r.data);

export const useEmpower = (materialCode: string | undefined) =>
  useQuery({ queryKey: ['supplier', 'hasEmpower', materialCode], queryFn: () => fetchEmpower(materialCode!), enabled: !!materialCode });

// ---- confidentiality agreement -----------------------------------------------------------------

export const fetchKeepsecret = () => post<KeepsecretState>('supplier/standardlog/hasKeepsecret').then((r) => r.data);

/** Short-lived: a newly published agreement version must be asked for soon after. */
export const keepsecretQuery = queryOptions({ queryKey: ['supplier', 'hasKeepsecret'], queryFn: fetchKeepsecret, staleTime: 30_000 });

export const acceptKeepsecret = (agreementId: number) => post<unknown>('supplier/standardlog/insertKeepsecret', { agreementId });

// ---- confirmation ------------------------------------------------------------------------------

export const fetchConfirmState = (id: number) => post<ConfirmState>('supplier/standardlog/hasConfirmLog', { id }).then((r) => r.data);

export const useConfirmState = (id: number | undefined) =>
  useQuery({ queryKey: ['supplier', 'hasConfirmLog', id], queryFn: () => fetchConfirmState(id!), enabled: id !== undefined });

/** Confirms one file; answers with its confirmation state (asked again when the reply omits it). */
export async function confirmFile(id: number): Promise<ConfirmState> {
  const r = await post<Partial<ConfirmState> | null>('supplier/standardlog/insertConfirmLog', { id });
  if (r.data && typeof r.data.confirmed === 'boolean' && r.data.confirmedAt !== undefined) return r.data as ConfirmState;
  return fetchConfirmState(id);
}

/** Confirms several files at once (already confirmed ones are counted, not logged again). */
export const confirmFiles = (ids: number[]) => post<ConfirmResult>('supplier/supplierDrawingFileInfomation/supplierConfirm', { ids }).then((r) => r.data);
