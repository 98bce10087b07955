/**
 * The stamped bytes of an archive file: file/view, file/print and file/download answer
 * with a copy watermarked on the server for the caller, and log the action. Side-neutral: the
 * supplier pages and the internal archive pages fetch files the same way.
 */
import { filesApi } from '@esm/contracts';
import { callBlob, type BlobResult } from '../../api/client.ts';

export type FileAction = keyof typeof filesApi;

/** Fetches one file's stamped copy; `onProgress` gets bytes received and the total when known. */
export function fetchFile(
  action: FileAction,
  id: number,
  onProgress?: (received: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<BlobResult> {
  return callBlob(filesApi[action], { id }, { onProgress, signal });
}
