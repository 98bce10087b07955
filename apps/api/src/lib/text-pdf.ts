/**
 * A report of lines of text in a PDF with the CJK font embedded (a subset, lib/watermark.ts), so
 * it can be searched and its words extracted: the countersign sign-off sheet and the evidence
 * package's report are written with it. Each line is wrapped by measured width, a character at a
 * time (Chinese has no spaces to break at); a line of size 12 or more is a heading.
 */
import type { PDFPage } from 'pdf-lib';
import { newCjkPdf } from './watermark.ts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 48;

/** A line: [text, size, indent]. */
export type Line = [string, number, number?];

/** Writes the lines; dated `date` (deterministic for the same lines and date). */
export async function linesPdf(
  lines: readonly Line[],
  meta: { title: string; date: Date; keywords?: string[] },
): Promise<Uint8Array> {
  const { doc, font, lib } = await newCjkPdf();
  doc.setTitle(meta.title);
  doc.setCreationDate(meta.date);
  doc.setModificationDate(meta.date);
  doc.setProducer('ESM 图纸档案门户');
  if (meta.keywords) doc.setKeywords(meta.keywords);
  const width = A4[0] - MARGIN * 2;
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const newLine = (size: number) => {
    y -= size * 1.6;
    if (y < MARGIN) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN - size;
    }
  };
  for (const [text, size, indent = 0] of lines) {
    if (size >= 12) y -= 6; // a heading stands apart
    let rest = text || ' ';
    while (rest.length) {
      let n = rest.length;
      while (n > 1 && font.widthOfTextAtSize(rest.slice(0, n), size) > width - indent) n--;
      newLine(size);
      page.drawText(rest.slice(0, n), { x: MARGIN + indent, y, size, font, color: lib.rgb(0.1, 0.1, 0.1) });
      rest = rest.slice(n);
    }
  }
  return doc.save();
}
