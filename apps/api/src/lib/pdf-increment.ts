/**
 * A PDF incremental update (ISO 32000-1, 7.5.6): new and changed objects appended after the
 * original bytes with a cross-reference section of their own whose /Prev points at the original's
 * last one. The original bytes are kept as they are — neither parsed again nor rewritten — so a
 * stamp costs what it adds, not what the drawing weighs; a reader takes the latest definition of
 * every object, and a signed original keeps its signature's byte range.
 *
 * The section is written in the form the original's last one has: a cross-reference table after a
 * table, a cross-reference stream after a stream (a reader that knows only tables cannot read the
 * original either).
 */
import type { PDFContext, PDFObject, PDFRef } from 'pdf-lib';

/** Where the original's last cross-reference section is, and in which form. */
export interface XrefTail {
  /** byte offset of the last section (the original's `startxref`) */
  startxref: number;
  /** the section is a cross-reference stream (`N G obj << /Type /XRef … >>`), not an `xref` table */
  stream: boolean;
  /** its trailer's /Size: one more than the highest object number the file uses */
  size: number;
}

const latin1 = (b: Uint8Array, from: number, to: number) =>
  Buffer.from(b.buffer, b.byteOffset + from, to - from).toString('latin1');

/**
 * The original's last `startxref`, checked to point at a cross-reference table or stream; null
 * when it does not (a damaged file that a reader has to reconstruct: the caller rewrites it whole).
 */
export function readXrefTail(bytes: Uint8Array): XrefTail | null {
  const tail = latin1(bytes, Math.max(0, bytes.length - 1024), bytes.length);
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) return null;
  const startxref = Number(m[1]);
  if (!Number.isSafeInteger(startxref) || startxref >= bytes.length) return null;
  const section = latin1(bytes, startxref, bytes.length);
  // the first /Size after it is in its trailer, or in the stream's dictionary (which precedes the stream's data)
  const size = Number(/\/Size\s+(\d+)/.exec(section)?.[1]);
  if (!Number.isSafeInteger(size)) return null;
  if (/^xref\s/.test(section)) return { startxref, stream: false, size };
  if (/^\d+\s+\d+\s+obj\s*<<[^]*?\/Type\s*\/XRef\b/.test(section.slice(0, 512)))
    return { startxref, stream: true, size };
  return null;
}

/** The trailer entries an update carries over from the original (Root, Info, ID). */
export interface UpdateTrailer {
  root: PDFRef;
  info?: PDFRef;
  /** the original's /ID array, serialised (kept: the first identifier names the document) */
  id?: PDFObject;
}

const ascii = (s: string) => Buffer.from(s, 'latin1');

function objectBytes(obj: PDFObject | string): Buffer {
  if (typeof obj === 'string') return ascii(obj);
  const buf = Buffer.allocUnsafe(obj.sizeInBytes());
  obj.copyBytesInto(buf, 0);
  return buf;
}

/**
 * `original` followed by an update section defining `objects` (new ones numbered from the
 * original's size, and redefinitions of existing ones under their own number and generation),
 * each a pdf-lib object or its PDF syntax (latin1).
 * `size` is one more than the highest object number in use, before this update.
 */
export function appendUpdate(
  original: Uint8Array,
  tail: XrefTail,
  size: number,
  objects: [PDFRef, PDFObject | string][],
  trailer: UpdateTrailer,
): Buffer {
  const parts: Buffer[] = [Buffer.from(original.buffer, original.byteOffset, original.byteLength)];
  let at = original.byteLength;
  const push = (b: Buffer) => {
    parts.push(b);
    at += b.length;
  };
  const last = original[original.byteLength - 1];
  if (last !== 0x0a && last !== 0x0d) push(ascii('\n'));

  const offsets = new Map<number, { gen: number; offset: number }>();
  let highest = size - 1;
  for (const [ref, obj] of objects) {
    offsets.set(ref.objectNumber, { gen: ref.generationNumber, offset: at });
    highest = Math.max(highest, ref.objectNumber);
    push(ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    push(objectBytes(obj));
    push(ascii('\nendobj\n'));
  }

  const entries = (extra?: { num: number; offset: number }) => {
    const all = [...offsets].map(([num, e]) => ({ num, ...e }));
    if (extra) all.push({ ...extra, gen: 0 });
    return all.sort((a, b) => a.num - b.num);
  };
  /** runs of consecutive object numbers: [first, count] */
  const runs = (list: { num: number }[]) => {
    const out: [number, number][] = [];
    for (const e of list) {
      const run = out.at(-1);
      if (run && run[0] + run[1] === e.num) run[1]++;
      else out.push([e.num, 1]);
    }
    return out;
  };
  const trailerEntries = (newSize: number) =>
    `/Size ${newSize} /Root ${trailer.root.toString()}${trailer.info ? ` /Info ${trailer.info.toString()}` : ''}${
      trailer.id ? ` /ID ${trailer.id.toString()}` : ''
    } /Prev ${tail.startxref}`;

  const xrefAt = at;
  if (!tail.stream) {
    const list = entries();
    let table = 'xref\n';
    let i = 0;
    for (const [first, count] of runs(list)) {
      table += `${first} ${count}\n`;
      for (const e of list.slice(i, i + count))
        table += `${String(e.offset).padStart(10, '0')} ${String(e.gen).padStart(5, '0')} n\r\n`;
      i += count;
    }
    push(ascii(`${table}trailer\n<< ${trailerEntries(highest + 1)} >>\nstartxref\n${xrefAt}\n%%EOF\n`));
    return Buffer.concat(parts, at);
  }

  // a cross-reference stream: its own entry included, rows of type (1 byte), offset (4), generation (2)
  const selfNum = highest + 1;
  const list = entries({ num: selfNum, offset: xrefAt });
  const rows = Buffer.alloc(list.length * 7);
  list.forEach((e, i) => {
    rows.writeUInt8(1, i * 7);
    rows.writeUInt32BE(e.offset, i * 7 + 1);
    rows.writeUInt16BE(e.gen, i * 7 + 5);
  });
  const index = runs(list)
    .map(([first, count]) => `${first} ${count}`)
    .join(' ');
  push(
    ascii(
      `${selfNum} 0 obj\n<< /Type /XRef ${trailerEntries(selfNum + 1)} /Index [${index}] /W [1 4 2] /Length ${rows.length} >>\nstream\n`,
    ),
  );
  push(rows);
  push(ascii(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`));
  return Buffer.concat(parts, at);
}

/** A context for the update's new objects, numbering them from `size` on. */
export function updateContext(lib: typeof import('pdf-lib'), size: number): PDFContext {
  const context = lib.PDFContext.create();
  context.largestObjectNumber = size - 1;
  return context;
}
