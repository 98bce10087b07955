/**
 * A PDF turned into one picture per page for printing. The browser's own PDF viewer is not used
 * for it: it may be turned off by policy, and headless Chromium's crashes on print(). Pages are
 * drawn one at a time at print resolution, so a long set does not hold every canvas at once.
 */
import { openPdf } from './pdfjs.ts';

/** 150 dpi: sharp on paper, a few MB per page at most. */
const PRINT_SCALE = 150 / 72;

export interface PrintPage {
  url: string;
  landscape: boolean;
}

export async function pdfToPageImages(data: Uint8Array): Promise<PrintPage[]> {
  const task = openPdf(data);
  try {
    const doc = await task.promise;
    const pages: PrintPage[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: PRINT_SCALE });
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      await page.render({ canvas, viewport }).promise;
      const blob = await new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('无法生成打印页面'))), 'image/png'),
      );
      pages.push({ url: URL.createObjectURL(blob), landscape: viewport.width > viewport.height });
      page.cleanup();
      canvas.width = canvas.height = 0;
    }
    return pages;
  } finally {
    void task.destroy();
  }
}
