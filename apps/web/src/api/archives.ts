/**
 * The internal side of the drawing archives (issue 3): tree loaders, the archive and history
 * pagers, suppliers, upload, obsolete, the Excel export and the stamped file bytes. Paths and
 * shapes are those of packages/contracts/src/archives.ts.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ProductLine,
  StandardFilePagerRequest,
  UploadFields,
  ZFileSupplierResponseSchema,
  ZMaterialPagerResponseSchema,
  ZStandardFilePagerResponseSchema,
  ZSupplierInformationResponseSchema,
  ZUploadResponseSchema,
  MaterialPagerRequest,
  StandardFileRow,
} from '@esm/contracts';
import { post, postBlob, postMultipart, saveBlob } from './client.ts';

export type MaterialPage = z.infer<typeof ZMaterialPagerResponseSchema>;
export type StandardFilePage = z.infer<typeof ZStandardFilePagerResponseSchema>;
export type SupplierPage = z.infer<typeof ZSupplierInformationResponseSchema>;
export type FileSupplierRow = z.infer<typeof ZFileSupplierResponseSchema>['data'][number];
type UploadResponse = z.infer<typeof ZUploadResponseSchema>;

/** sortField comes from the table's columns; the server checks it against its list. */
type Paged<R> = Omit<R, 'sortField'> & { sortField?: string };
export type StandardFileFilters = Omit<StandardFilePagerRequest, 'results' | 'page' | 'sortField' | 'sortOrder'>;

// ---- tree ------------------------------------------------------------------------------------

export const fetchProductLines = async (): Promise<ProductLine[]> => (await post<ProductLine[]>('haier/standardFile/selectProductType')).data;

export const fetchMaterialPager = (req: MaterialPagerRequest) => post<MaterialPage['data'], MaterialPage>('haier/standardFile/getMaterialPager', req);

/** The loaders MaterialTree expects (100 materials a node page, as the tree pages them). */
export const treeLoaders = {
  loadProductLines: fetchProductLines,
  loadMaterials: async (q: { productLineCode: string; page: number; keyword?: string }) => {
    const res = await fetchMaterialPager({ ...q, results: 100, sortField: 'code', sortOrder: 'ascend' });
    return { rows: res.data, total: res.total };
  },
};

/** Materials matching a keyword, for pickers (upload form). */
export const materialSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: ['haier/standardFile/getMaterialPager', 'search', keyword],
    queryFn: async () => (await fetchMaterialPager({ keyword: keyword || undefined, results: 20, sortField: 'code', sortOrder: 'ascend' })).data,
    staleTime: 60_000,
  });
export const useMaterialSearch = (keyword: string) => useQuery(materialSearchQuery(keyword));

// ---- files ---------------------------------------------------------------------------------------

/** Cache keys (the endpoints' names) of the two archive lists. */
export const STANDARD_FILE_PAGER = 'haier/standardFile/getStandardFilePager';
export const STANDARD_FILE_HISTORY_PAGER = 'haier/standardFileHistory/getStandardFilePager';

export const fetchStandardFilePager = (req: Paged<StandardFilePagerRequest>) => post<StandardFileRow[], StandardFilePage>(STANDARD_FILE_PAGER, req);

export const fetchStandardFileHistoryPager = (req: Paged<Omit<StandardFilePagerRequest, 'status'>>) =>
  post<StandardFileRow[], StandardFilePage>(STANDARD_FILE_HISTORY_PAGER, req);

/** After an upload or an obsolete both lists (and the "current version" look-ups) are stale. */
export function useRefreshArchiveLists() {
  const queryClient = useQueryClient();
  return () => {
    for (const key of [STANDARD_FILE_PAGER, STANDARD_FILE_HISTORY_PAGER]) void queryClient.invalidateQueries({ queryKey: [key] });
  };
}

/** The latest version of a standard code, whatever its status: an upload under it is a new version. */
export const latestVersionQuery = (standardCode: string) =>
  queryOptions({
    queryKey: [STANDARD_FILE_PAGER, 'latest', standardCode],
    queryFn: async () => {
      const res = await fetchStandardFilePager({ standardCode, results: 20, sortField: 'createdAt', sortOrder: 'descend' });
      // the next version number follows the highest one, whatever its status
      return res.data.sort((a, b) => b.versionNo - a.versionNo)[0] ?? null;
    },
    enabled: standardCode.length > 0,
    staleTime: 10_000,
  });
export const useLatestVersion = (standardCode: string) => useQuery(latestVersionQuery(standardCode));

/** Multipart: the fields of ZUploadFieldsSchema and the file part `file`. */
export function uploadStandardFile(fields: UploadFields, file: File, opts: { onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') form.append(k, String(v));
  // the file part goes last so the server has every field before it reads the bytes
  form.append('file', file, file.name);
  return postMultipart<StandardFileRow, UploadResponse>('haier/standardFile/upload', form, { ...opts, silent: true });
}

export const obsoleteStandardFile = (id: number, reason: string) => post<StandardFileRow>('haier/standardFile/obsolete', { id, reason }, { silent: true });

// ---- suppliers -----------------------------------------------------------------------------------

export const fetchSupplierInformation = (req: { keyword?: string; results?: number; page?: number }) =>
  post<SupplierPage['data'], SupplierPage>('haier/standardFile/getSupplierInformation', req);

export const supplierSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: ['haier/standardFile/getSupplierInformation', keyword],
    queryFn: async () => (await fetchSupplierInformation({ keyword: keyword || undefined, results: 20 })).data,
    staleTime: 60_000,
  });
export const useSupplierSearch = (keyword: string) => useQuery(supplierSearchQuery(keyword));

/** Which suppliers can see a file (supplies its material; grant state). */
export const fileSuppliersQuery = (id: number) =>
  queryOptions({
    queryKey: ['haier/standardFile/getStandardFileSupplier', id],
    queryFn: async () => (await post<FileSupplierRow[]>('haier/standardFile/getStandardFileSupplier', { id })).data,
  });
export const useFileSuppliers = (id: number | undefined) => useQuery({ ...fileSuppliersQuery(id ?? 0), enabled: Boolean(id) });

// ---- export ----------------------------------------------------------------------------------------
// (the stamped bytes of one file — file/view, print, download — are fetched through api/files.ts,
// shared with the supplier pages)

export interface ExportProgress {
  /** The rows being exported (X-Total-Rows), known once the server has answered. */
  rows: number | null;
  received: number;
  /** The size in bytes when the server sent one (a streamed export usually does not). */
  total: number | null;
}

/** The number in X-Total-Rows, or null when missing or not a count. */
const totalRows = (headers: Headers): number | null => {
  const raw = headers.get('x-total-rows');
  const n = raw === null || raw.trim() === '' ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
};

/**
 * The archive list with the same filters and sort as an .xlsx, saved by the browser; refusals
 * are shown by the caller. Reports the row count as soon as the server has counted, then bytes;
 * resolves to the number of rows exported (null if the server did not say).
 */
export async function exportDrawingExcel(
  req: Paged<Omit<StandardFilePagerRequest, 'results' | 'page'>>,
  onProgress: (progress: ExportProgress) => void,
): Promise<number | null> {
  let rows: number | null = null;
  const result = await postBlob('searchDrawingFileInformations/drawingExportExcel', req, {
    silent: true,
    onHeaders: (headers) => {
      rows = totalRows(headers);
      onProgress({ rows, received: 0, total: null });
    },
    onProgress: (received, total) => onProgress({ rows, received, total }),
  });
  saveBlob(result);
  return rows;
}
