/**
 * The drawing archives' calls (contracts archivesApi): tree loaders, pickers, upload, obsolete,
 * who can see a file — for the internal side — and the supplier's own tree and grant.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { archivesApi, empowerApi, type ObsoleteScope, type UploadFields } from '@esm/contracts';
import { call, callMultipart } from '../../api/client.ts';
import { quietAhead } from '../../api/ahead.ts';

// ---- tree ------------------------------------------------------------------------------------

/** The loaders MaterialTree expects (100 materials a node page, as the tree pages them), per side. */
function loaders(side: 'haier' | 'supplier') {
  const lines = side === 'haier' ? archivesApi.productLines : archivesApi.supplierProductLines;
  const materials = side === 'haier' ? archivesApi.materials : archivesApi.supplierMaterials;
  return {
    // the tree's first call (a landing page fetches it ahead: api/ahead.ts)
    productLines: {
      queryKey: [lines.path],
      queryFn: async ({ meta }: { meta?: Record<string, unknown> }) =>
        (await call(lines, undefined, quietAhead(meta))).data,
    },
    loadMaterials: async (q: { productLineCode: string; page: number; keyword?: string }) => {
      const res = await call(materials, { ...q, results: 100, sortField: 'code', sortOrder: 'ascend' });
      return { rows: res.data, total: res.total };
    },
  };
}
export const treeLoaders = loaders('haier');
export const supplierTreeLoaders = loaders('supplier');

/** Materials matching a keyword, for pickers (upload form). */
export const materialSearchQuery = (keyword: string) =>
  queryOptions({
    queryKey: [archivesApi.materials.path, 'search', keyword],
    queryFn: async () =>
      (
        await call(archivesApi.materials, {
          keyword: keyword || undefined,
          results: 20,
          sortField: 'code',
          sortOrder: 'ascend',
        })
      ).data,
    staleTime: 60_000,
  });
export const useMaterialSearch = (keyword: string) => useQuery(materialSearchQuery(keyword));

/** The supplier's product lines (its visible materials'), for its filters. */
export const supplierProductLinesQuery = { ...supplierTreeLoaders.productLines, staleTime: 60_000 };
export const useSupplierProductLines = () => useQuery(supplierProductLinesQuery);

/** The supplier's grant on a material (the tree shows why a material's drawings are closed). */
export const useEmpower = (materialCode: string | undefined) =>
  useQuery({
    queryKey: [empowerApi.hasEmpower.path, materialCode],
    queryFn: async () => (await call(empowerApi.hasEmpower, { materialCode: materialCode! })).data,
    enabled: !!materialCode,
  });

// ---- files ---------------------------------------------------------------------------------------

/** After an upload or an obsolete both lists (and the "current version" look-ups) are stale. */
export function useRefreshArchiveLists() {
  const queryClient = useQueryClient();
  return () => {
    for (const key of [archivesApi.files.path, archivesApi.history.path])
      void queryClient.invalidateQueries({ queryKey: [key] });
  };
}

/** The latest version of a standard code, whatever its status: an upload under it is a new version. */
export const latestVersionQuery = (standardCode: string) =>
  queryOptions({
    queryKey: [archivesApi.files.path, 'latest', standardCode],
    queryFn: async () => {
      const res = await call(archivesApi.files, {
        standardCode,
        results: 20,
        sortField: 'createdAt',
        sortOrder: 'descend',
      });
      // the next version number follows the highest one, whatever its status
      return res.data.sort((a, b) => b.versionNo - a.versionNo)[0] ?? null;
    },
    enabled: standardCode.length > 0,
    staleTime: 10_000,
  });
export const useLatestVersion = (standardCode: string) => useQuery(latestVersionQuery(standardCode));

/** Multipart: the fields of ZUploadFieldsSchema and the file part `file`. */
export function uploadStandardFile(
  fields: UploadFields,
  file: File,
  opts: { onProgress?: (sent: number, total: number) => void; signal?: AbortSignal } = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') form.append(k, String(v));
  // the file part goes last so the server has every field before it reads the bytes
  form.append('file', file, file.name);
  return callMultipart(archivesApi.upload, form, { ...opts, silent: true });
}

export const obsoleteStandardFile = (id: number, reason: string, scope: ObsoleteScope) =>
  call(archivesApi.obsolete, { id, reason, scope }, { silent: true });

/** Every version of a standard code (the 作废 dialog says what happens to the others). */
export const useVersionsOf = (standardCode: string | undefined) =>
  useQuery({
    queryKey: [archivesApi.files.path, 'versions', standardCode],
    queryFn: async () =>
      (
        await call(archivesApi.files, {
          standardCode: standardCode!,
          results: 100,
          sortField: 'createdAt',
          sortOrder: 'descend',
        })
      ).data,
    enabled: Boolean(standardCode),
  });

// ---- suppliers -----------------------------------------------------------------------------------

/** Which suppliers can see a file (supplies its material; grant state). */
export const useFileSuppliers = (id: number | undefined) =>
  useQuery({
    queryKey: [archivesApi.fileSuppliers.path, id],
    queryFn: async () => (await call(archivesApi.fileSuppliers, { id: id! })).data,
    enabled: Boolean(id),
  });
