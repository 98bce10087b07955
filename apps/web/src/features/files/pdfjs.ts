/**
 * pdf.js set up once for the viewer and for printing: its worker through Vite, and its CMaps,
 * standard fonts and wasm decoders from the copies shipped with the app (apps/web/pdfjs-assets.ts).
 */
import { GlobalWorkerOptions, getDocument, type PDFDocumentLoadingTask } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;
const ASSETS = `${import.meta.env.BASE_URL}pdfjs/`;

/** Opens a PDF from its bytes (copied: pdf.js hands the buffer to its worker). */
export function openPdf(data: Uint8Array): PDFDocumentLoadingTask {
  return getDocument({
    data: data.slice(),
    cMapUrl: `${ASSETS}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${ASSETS}standard_fonts/`,
    wasmUrl: `${ASSETS}wasm/`,
    // no script from a document ever runs
    isEvalSupported: false,
    enableXfa: false,
  });
}
