/**
 * The stamping worker (modules/files/stamp-pool.ts): runs watermark.ts's `stampFile` in a worker
 * thread, so that stamping a 20-page PDF (pdf-lib, ~20–50 ms of JavaScript) or decoding and
 * drawing on a large image never holds the api's event loop — every other request waits on that
 * loop. An unstampable file is an answer, not a crash: it comes back as `{ refused }` with the
 * Chinese message (an error's class does not survive the thread boundary).
 */
import Piscina from 'piscina';
import type { FileType } from '@esm/contracts';
import { stampFile, UnstampableError } from './watermark.ts';

export interface StampTask {
  bytes: Uint8Array;
  type: FileType;
  text: string;
}
/** The stamped bytes, or why the file cannot be stamped. */
export type StampResult = Uint8Array | { refused: string };

export default async function stamp({ bytes, type, text }: StampTask): Promise<StampResult | ReturnType<typeof Piscina.move>> {
  try {
    const out = await stampFile(bytes, type, text);
    // The result's memory is handed over, not copied. Only a plain ArrayBuffer of its own can be;
    // a Node Buffer (the canvas' encoder) may sit in a pool or outside the heap: copied once.
    const own = !Buffer.isBuffer(out) && out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
    return Piscina.move(own ? out : new Uint8Array(out));
  } catch (e) {
    if (e instanceof UnstampableError) return { refused: e.message };
    throw e;
  }
}
