/**
 * Printing and downloading a file's stamped copy (file/print, file/download), shared by the
 * viewer and the file tables. `run` wraps the server call: the supplier pages pass the
 * confidentiality gate, internal pages run it as is. Both resolve undefined when the user
 * declined the agreement; failures were toasted by the API client and are rethrown.
 */
import { saveBlob } from '../../api/client.ts';
import { fetchFile } from './api.ts';

export type Run = <T>(action: () => Promise<T>) => Promise<T | undefined>;
export const runDirectly: Run = (action) => action();

/** Downloads the stamped copy under the server's file name; resolves that name. */
export async function downloadFile(id: number, run: Run = runDirectly): Promise<string | undefined> {
  const res = await run(() => fetchFile('download', id));
  if (!res) return undefined;
  saveBlob(res);
  return res.fileName;
}

/** Fetches the print copy (logged as a print) and opens the print dialog on it. */
export async function printFile(id: number, run: Run = runDirectly): Promise<boolean> {
  const res = await run(() => fetchFile('print', id));
  if (!res) return false;
  await printBlob(res.blob, res.type);
  return true;
}

/**
 * Prints a stamped copy without leaving the page: its pages as pictures (a PDF is drawn page by
 * page with pdf.js) in a hidden iframe whose print() opens the browser's print dialog. Nothing
 * opens in a new window, so no pop-up blocker interferes.
 */
export async function printBlob(blob: Blob, type: string): Promise<void> {
  const pages = type.includes('pdf')
    ? await (await import('./pdfPrint.ts')).pdfToPageImages(new Uint8Array(await blob.arrayBuffer()))
    : [{ url: URL.createObjectURL(blob), landscape: false }];
  const landscape = pages[0]?.landscape ?? false;
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.style.cssText = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0;visibility:hidden';
  frame.srcdoc = `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: ${landscape ? 'landscape' : 'auto'}; margin: 8mm; }
html, body { margin: 0; }
img { display: block; max-width: 100%; max-height: 100vh; margin: 0 auto; break-after: page; }
img:last-child { break-after: auto; }
</style></head><body>${pages.map((p) => `<img alt="" src="${p.url}">`).join('')}</body></html>`;
  // the print dialog may still be reading the pictures after print() returns
  const cleanUp = () =>
    setTimeout(() => {
      frame.remove();
      for (const p of pages) URL.revokeObjectURL(p.url);
    }, 60_000);
  await new Promise<void>((resolve, reject) => {
    frame.onload = () => {
      const win = frame.contentWindow;
      const images = Array.from(frame.contentDocument?.images ?? []);
      Promise.all(
        images.map((img) => (img.complete ? Promise.resolve() : new Promise((r) => (img.onload = img.onerror = r)))),
      )
        .then(() => {
          win?.focus();
          win?.print();
          resolve();
        })
        .catch(reject)
        .finally(cleanUp);
    };
    document.body.appendChild(frame);
  });
}
