/** searchDrawingFileInformations/drawingExportExcel: the archive list as .xlsx, with progress. */
import { exportApi, type EndpointBody } from '@esm/contracts';
import { callBlob, saveBlob } from '../../api/client.ts';

export interface ExportProgress {
  /** The rows being exported (X-Total-Rows), known once the server has answered. */
  rows: number | null;
  received: number;
  /** The size in bytes when the server sent one (a streamed export usually does not). */
  total: number | null;
}

export type ExportRequest = NonNullable<EndpointBody<typeof exportApi.drawingExcel>>;

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
  req: ExportRequest,
  onProgress: (progress: ExportProgress) => void,
): Promise<number | null> {
  let rows: number | null = null;
  const result = await callBlob(exportApi.drawingExcel, req, {
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
