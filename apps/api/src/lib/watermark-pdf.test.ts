/**
 * The PDF stamp as an incremental update: the original bytes stay a prefix of every copy, a
 * reader (pdf.js, as a browser shows it) sees the stamp on every page over the page's own
 * content, and the copy code is in the metadata — for both kinds of cross-reference, for pages
 * that inherit their resources or split their content, and for a file whose cross-reference is
 * broken (rewritten whole instead).
 */
import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDict, PDFDocument, PDFName, StandardFonts, type PDFPage } from 'pdf-lib';
import { pdfPages } from '../../test/helpers.ts';
import { COPY_CODE_KEYWORD } from './copy-code.ts';
import { readXrefTail } from './pdf-increment.ts';
import { stampPdf } from './watermark.ts';

const TEXT = '青岛海达精密机械有限公司 demo2 2026-11-22 10:30 127.0.0.1 仅限本人查看 严禁外传';

async function drawing(pages: number, draw?: (page: PDFPage, doc: PDFDocument) => void) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([842, 595]);
    page.drawText(`SHEET ${i} OF ${pages}`, { x: 40, y: 40, size: 14, font });
    draw?.(page, doc);
  }
  return doc;
}

const keywords = async (bytes: Uint8Array) =>
  (await PDFDocument.load(bytes, { updateMetadata: false })).getKeywords()?.split(' ') ?? [];

/** Every page shows its own content and the whole watermark (pdf.js splits a line into runs). */
async function expectStamped(bytes: Uint8Array, pages: number) {
  const text = await pdfPages(Buffer.from(bytes));
  expect(text).toHaveLength(pages);
  text.forEach((page, i) => {
    expect(page).toContain(`SHEET ${i + 1} OF ${pages}`);
    expect(page.replace(/\n/g, '')).toContain('demo2 2026-11-22 10:30 127.0.0.1');
    expect(page).toContain('青岛海达精密机械有限公司');
  });
}

describe('a PDF stamp is an update appended to the original', () => {
  it.each([
    ['a cross-reference stream', true],
    ['a cross-reference table', false],
  ])('after %s: the original is a prefix, every page stamped, the copy code in the metadata', async (_, streams) => {
    const doc = await drawing(3);
    doc.setKeywords(['drawing', 'HR-1']);
    const original = await doc.save({ useObjectStreams: streams });
    expect(readXrefTail(original)?.stream).toBe(streams);

    const copy = await stampPdf(original, TEXT, 'ABCD123456');
    expect(Buffer.from(copy.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(readXrefTail(copy)).toMatchObject({ stream: streams });
    await expectStamped(copy, 3);
    expect(await keywords(copy)).toEqual(['drawing', 'HR-1', `${COPY_CODE_KEYWORD}ABCD123456`]);

    // a copy of a copy chains a second update and keeps both codes
    const again = await stampPdf(copy, TEXT, 'EFGH654321');
    expect(Buffer.from(again.subarray(0, copy.length)).equals(Buffer.from(copy))).toBe(true);
    await expectStamped(again, 3);
    expect((await keywords(again)).slice(-2)).toEqual([
      `${COPY_CODE_KEYWORD}ABCD123456`,
      `${COPY_CODE_KEYWORD}EFGH654321`,
    ]);
  });

  it('pages that inherit their resources, split their content and already use the stamp’s names', async () => {
    const doc = await drawing(2, (page, d) => {
      // a second content stream of the page's own, and its font also under the name EsmWm
      page.node.addContentStream(d.context.register(d.context.stream('BT ET\n')));
      const fonts = page.node.Resources()!.lookup(PDFName.of('Font'), PDFDict);
      fonts.set(PDFName.of('EsmWm'), fonts.values()[0]!);
    });
    // the resources move to the page tree's root: the pages inherit them
    const [first] = doc.getPages();
    const resources = first!.node.Resources()!;
    doc.catalog.Pages().set(PDFName.of('Resources'), resources);
    for (const page of doc.getPages()) page.node.delete(PDFName.of('Resources'));
    const original = await doc.save({ useObjectStreams: false });
    expect(doc.getPages()[0]!.node.Contents()).toBeInstanceOf(PDFArray);

    const copy = await stampPdf(original, TEXT, 'ABCD123456');
    expect(Buffer.from(copy.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(copy.subarray(original.length)).toString('latin1')).toContain('/EsmWm1 ');
    await expectStamped(copy, 2);
  });

  it('a document without an information dictionary gets one for the copy code', async () => {
    const doc = await drawing(1);
    doc.context.trailerInfo.Info = undefined;
    const original = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
    expect(Buffer.from(original).toString('latin1')).not.toContain('/Info');
    const copy = await stampPdf(original, TEXT, 'ABCD123456');
    await expectStamped(copy, 1);
    expect(await keywords(copy)).toEqual([`${COPY_CODE_KEYWORD}ABCD123456`]);
  });

  it('a file whose startxref points nowhere is rewritten whole, stamped all the same', async () => {
    const original = Buffer.from(await (await drawing(2)).save({ useObjectStreams: false }));
    const broken = Buffer.from(original.toString('latin1').replace(/startxref\s+\d+/, 'startxref\n17'), 'latin1');
    expect(readXrefTail(broken)).toBeNull();
    const copy = await stampPdf(broken, TEXT, 'ABCD123456');
    expect(Buffer.from(copy.subarray(0, broken.length)).equals(broken)).toBe(false); // not an update
    await expectStamped(copy, 2);
    expect(await keywords(copy)).toContain(`${COPY_CODE_KEYWORD}ABCD123456`);
  });
});
