/**
 * The BOM calls (contracts bomApi): the supplier's materials for the line form, the line moves,
 * the template, the import (with upload progress) and the exports. Moves are `silent`: the form
 * or dialog that made them shows the refusal where it belongs.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { bomApi, type AddBomLineRequest, type EndpointBody, type UpdateBomLineRequest } from '@esm/contracts';
import { call, callBlob, callMultipart, saveBlob } from '../../api/client.ts';

export const useBomMaterials = () =>
  useQuery({ queryKey: [bomApi.materials.path], queryFn: async () => (await call(bomApi.materials)).data });

/** After any change the tree, the vendors and the materials' counts may differ. */
export function useRefreshBom() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all(
      [bomApi.tree, bomApi.vendors, bomApi.materials].map((e) => queryClient.invalidateQueries({ queryKey: [e.path] })),
    );
}

export const addLine = async (body: AddBomLineRequest) => (await call(bomApi.add, body, { silent: true })).data;
export const updateLine = async (body: UpdateBomLineRequest) =>
  (await call(bomApi.update, body, { silent: true })).data;
export const deleteLine = (id: number) => call(bomApi.remove, { id }, { silent: true });

/** Checks (confirm false) or imports (true) a file; reports the bytes sent. */
export function importFile(file: File, confirm: boolean, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('confirm', String(confirm));
  form.append('file', file, file.name);
  return callMultipart(bomApi.import, form, {
    silent: true,
    onProgress: (sent, total) => onProgress(total ? Math.round((sent / total) * 100) : 0),
  });
}

async function download(run: () => ReturnType<typeof callBlob>): Promise<string> {
  const file = await run();
  saveBlob(file);
  return file.fileName;
}

export const downloadTemplate = () => download(() => callBlob(bomApi.template, undefined, { silent: true }));
export const exportLines = (filters: NonNullable<EndpointBody<typeof bomApi.exportLines>>) =>
  download(() => callBlob(bomApi.exportLines, filters, { silent: true }));
export const exportVendors = (filters: NonNullable<EndpointBody<typeof bomApi.exportVendors>>) =>
  download(() => callBlob(bomApi.exportVendors, filters, { silent: true }));
