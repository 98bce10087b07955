/**
 * The per-viewer watermark: every copy a user views, prints or downloads is stamped on
 * the server with who took it, when and from where, so a leaked copy names its source. There is
 * no unstamped path to the bytes of a PDF or an image; DWG/DXF cannot be stamped without a CAD
 * engine, so they leave unchanged but under a file name that carries the stamp.
 *
 * The CJK font is the full Noto Sans SC TrueType shipped inside an npm package (nothing is
 * downloaded at run time). It is read and parsed once per process and kept in memory; each PDF
 * embeds only the subset of glyphs the watermark uses (a few KB, not the 10 MB font).
 */
import { COPY_CODE_KEYWORD, formatCopyCode } from './copy-code.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type fontkit from '@pdf-lib/fontkit';
import type { PDFDict, PDFDocument, PDFFont, PDFObject, PDFRef } from 'pdf-lib';
import type { FileType } from '@esm/contracts';
import { AppError, badRequest } from '../plugins/errors.ts';
import { cstMinute } from './dates.ts';
import { encodePng, pngRowsLength } from './png-encode.ts';
import { appendUpdate, readXrefTail, updateContext, type XrefTail } from './pdf-increment.ts';

/** Who took the copy: the supplier's name (内部 for staff), the account, the time and the address. */
export interface WatermarkStamp {
  supplierName: string | null;
  account: string;
  at: Date;
  ip: string;
  /** the copy's code (copy-code.ts), which leads back to its log row */
  copyCode?: string;
}

/** YYYY-MM-DD HH:mm in Asia/Shanghai. */
export const stampTime = cstMinute;

/** e.g. "青岛海达精密机械有限公司 demo2 2026-11-22 10:30 127.0.0.1 仅限本人查看 严禁外传". */
export function watermarkText(s: WatermarkStamp): string {
  const code = s.copyCode ? ` 复制码 ${formatCopyCode(s.copyCode)}` : '';
  return `${s.supplierName ?? '内部'} ${s.account} ${stampTime(s.at)} ${s.ip}${code} 仅限本人查看 严禁外传`;
}

/** Characters a file name must not carry (path separators, reserved on Windows, controls). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must not carry
const UNSAFE_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]+/g;
const safePart = (s: string) => s.replace(UNSAFE_NAME, '_').trim() || '_';

/** `<name>_<version>.<ext>`: the name a viewed or printed copy is shown under. */
export function plainFileName(name: string, version: string, ext: string): string {
  return `${safePart(name)}_${safePart(version)}.${ext}`;
}

/** `<name>_<version>_<supplier or account>_<YYYYMMDDHHmm>.<ext>`: the name of a downloaded copy. */
export function stampedFileName(name: string, version: string, ext: string, s: WatermarkStamp): string {
  const when = stampTime(s.at).replace(/[-: ]/g, '');
  return `${safePart(name)}_${safePart(version)}_${safePart(s.supplierName ?? s.account)}_${when}.${ext}`;
}

/** RFC 6266 Content-Disposition with an RFC 8187 UTF-8 name and an ASCII fallback for old clients. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  // clients without RFC 8187 support get the ASCII parts (a run of Chinese becomes one "_")
  const fallback = fileName.replace(/[^\x20-\x7e]+/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A stored file that cannot be stamped: it is refused (and logged) rather than served bare. */
export class UnstampableError extends AppError {
  constructor(message: string) {
    super(422, message);
  }
}

// ---- the font, loaded once -----------------------------------------------------------------

const FONT_PATH = createRequire(import.meta.url).resolve(
  '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
);
const CANVAS_FONT_FAMILY = 'ESM Watermark Noto Sans SC';

// The stamping libraries are loaded by the first stamp, not at start-up: pdf-lib with fontkit and
// the canvas addon hold ~60 MB resident between them, which a server that is only listing or
// exporting should not carry (the history of docs/benchmarks.md).
let pdfLibOnce: Promise<typeof import('pdf-lib')> | undefined;
const pdfLib = () => (pdfLibOnce ??= import('pdf-lib'));
let canvasOnce: Promise<typeof import('@napi-rs/canvas')> | undefined;
const canvasLib = () => (canvasOnce ??= import('@napi-rs/canvas'));

type FontkitFont = ReturnType<typeof fontkit.create>;
let fontOnce: Promise<{ bytes: Uint8Array; font: FontkitFont }> | undefined;

/** The TTF bytes and its parsed fontkit font, read on first use and kept for the process. */
function watermarkFont() {
  fontOnce ??= Promise.all([readFile(FONT_PATH), import('@pdf-lib/fontkit')])
    .then(([buf, { default: fontkit }]) => {
      const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
      return { bytes, font: withEvenGlyphRecords(fontkit.create(bytes)) };
    })
    .catch((e) => {
      fontOnce = undefined; // a failed read may succeed next time
      throw e;
    });
  return fontOnce;
}

interface TtfSubsetInternals {
  glyf: Uint8Array[];
  offset: number;
  _addGlyph(gid: number): number;
}

/**
 * @pdf-lib/fontkit 1.1.1 (pinned) writes a subset's loca table in the short format (offset / 2)
 * whenever the subset is under 128 KB, but copies glyph records at their odd lengths: every
 * glyph after an odd one then points half a byte off and renders as nothing (most of Noto Sans
 * SC's CJK glyphs). Padding each record to an even length — a zero byte after the glyph, which
 * TrueType allows — keeps the short offsets exact.
 */
function withEvenGlyphRecords(font: FontkitFont): FontkitFont {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const internals = subset as unknown as TtfSubsetInternals;
    const addGlyph = internals._addGlyph.bind(subset);
    internals._addGlyph = (gid) => {
      const index = addGlyph(gid);
      const record = internals.glyf[index]!;
      if (record.length % 2) {
        // fontkit's stream takes only its own bundled Buffer class: allocate the same kind
        const padded = new (record.constructor as new (size: number) => Uint8Array)(record.length + 1);
        padded.set(record);
        internals.glyf[index] = padded;
        internals.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

let canvasFontRegistered = false;
function registerCanvasFont({ GlobalFonts }: typeof import('@napi-rs/canvas')) {
  if (canvasFontRegistered) return;
  if (!GlobalFonts.registerFromPath(FONT_PATH, CANVAS_FONT_FAMILY))
    throw new Error(`cannot register watermark font ${FONT_PATH}`);
  canvasFontRegistered = true;
}

// ---- layout shared by PDF and images ---------------------------------------------------------------

const ANGLE_DEG = 30;
const OPACITY = 0.18;

interface Tile {
  x: number;
  y: number;
}

/**
 * Origins of the watermark lines tiling a w × h area (origin bottom-left, y up) along a 30°
 * diagonal: a grid in the rotated frame covering the area's circumscribed circle, rows offset
 * by half a step, lines that cannot touch the area dropped.
 */
function tiles(w: number, h: number, textWidth: number, size: number): Tile[] {
  const rad = (ANGLE_DEG * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const half = Math.hypot(w, h) / 2;
  const stepX = textWidth + size * 4;
  const stepY = size * 5;
  const out: Tile[] = [];
  let row = 0;
  for (let v = -half; v <= half; v += stepY, row++) {
    for (let u = -half - textWidth + (row % 2) * (stepX / 2); u <= half; u += stepX) {
      const x = w / 2 + u * cos - v * sin;
      const y = h / 2 + u * sin + v * cos;
      const midX = x + (textWidth / 2) * cos;
      const midY = y + (textWidth / 2) * sin;
      const reach = textWidth / 2 + size;
      if (midX < -reach || midX > w + reach || midY < -reach || midY > h + reach) continue;
      out.push({ x, y });
    }
  }
  return out;
}

/** Font size for a page or image: about 1/40 of its short side, so each has a similar number of lines. */
const sizeFor = (w: number, h: number, min: number, max: number) => Math.min(max, Math.max(min, Math.min(w, h) / 40));

// ---- PDF ---------------------------------------------------------------------------------------

const PDF_DAMAGED = 'PDF 文件已损坏，无法添加水印，请联系管理员';
const PDF_ENCRYPTED = '该 PDF 已加密，无法添加水印，请联系管理员上传未加密的版本';
const PDF_NO_PAGES = 'PDF 文件没有页面，无法添加水印，请联系管理员';

/**
 * Stamps every page of a PDF, as an incremental update appended to the original bytes
 * (pdf-increment.ts): per copy only the stamp is written — the font subset once, one content
 * stream per page size, the pages' dictionaries and the document information with the copy code.
 * What the update needs of the original (its pages, their resources and boxes, its trailer) is
 * read once per file and kept (PDF_TEMPLATE_CACHE files, as PDF syntax: no parsed document is
 * held). A file whose cross-reference cannot be found where it says is rewritten whole instead.
 */
export async function stampPdf(bytes: Uint8Array, text: string, copyCode?: string): Promise<Uint8Array> {
  const [program, lib, template] = await Promise.all([watermarkFontProgram(text), pdfLib(), pdfTemplate(bytes)]);
  if (!template) return rewriteStampedPdf(lib, bytes, program, text, copyCode);
  const { PDFHexString } = lib;
  const context = updateContext(lib, template.size);
  const push = context.register(context.stream('q\n'));
  const pop = context.register(context.stream('Q\n'));
  const fontRef = embedWatermarkFont(lib, context, program);
  const gsRef = context.register(context.obj({ Type: 'ExtGState', ca: OPACITY, CA: OPACITY }));
  const hex = program.encode(text);
  const widthAt1 = program.widthOf(text);
  const stamps = new Map<string, PDFRef>();
  const changed: [PDFRef, string][] = [];
  for (const page of template.pages) {
    const key = `${page.box.x} ${page.box.y} ${page.box.width} ${page.box.height} ${page.fontName} ${page.gsName}`;
    let stamp = stamps.get(key);
    if (!stamp) {
      const content = stampContent(lib, page.box, page.fontName, page.gsName, hex, widthAt1);
      stamp = context.register(context.stream(content, { Filter: 'FlateDecode' }));
      stamps.set(key, stamp);
    }
    changed.push([
      page.ref,
      `<<${page.entries}\n/Contents [${push} ${page.contents} ${pop} ${stamp}]\n/Resources <<${page.resources}` +
        `\n/Font <<${page.fonts} /${page.fontName} ${fontRef} >>\n/ExtGState <<${page.extGStates} /${page.gsName} ${gsRef} >>\n>>\n>>`,
    ]);
  }
  let info = template.info;
  if (copyCode) {
    // the copy code in the document's metadata too: a copy whose watermark was cropped still names its row
    const keywords = [...template.keywords, `${COPY_CODE_KEYWORD}${copyCode}`].join(' ');
    info ??= context.nextRef();
    changed.push([info, `<<${template.infoEntries}\n/Keywords ${PDFHexString.fromText(keywords)}\n>>`]);
  }
  return appendUpdate(bytes, template.tail, template.size, [...context.enumerateIndirectObjects(), ...changed], {
    root: template.root,
    info,
    id: template.id,
  });
}

/** What a stamp needs of one page, as PDF syntax (dictionary entries without the << >>). */
interface TemplatePage {
  ref: PDFRef;
  box: { x: number; y: number; width: number; height: number };
  /** the page's own entries but /Contents and /Resources */
  entries: string;
  /** the references of its content streams, in order */
  contents: string;
  /** its resources (inherited ones included) but /Font and /ExtGState; then those two's entries */
  resources: string;
  fonts: string;
  extGStates: string;
  /** names for the stamp's font and graphics state that the page's resources do not use */
  fontName: string;
  gsName: string;
}

interface PdfTemplate {
  tail: XrefTail;
  size: number;
  root: PDFRef;
  info?: PDFRef;
  id?: PDFObject;
  /** the information dictionary's entries but /Keywords, and its keywords */
  infoEntries: string;
  keywords: string[];
  pages: TemplatePage[];
}

/**
 * Promises of what was made from a file's bytes, kept by content (sha256), most recently used
 * last, up to `capacity` in weight: PDF templates count one each, decoded images their pixels'
 * bytes. What weighs more than the whole cache is made each time without hashing its bytes; a
 * rejected promise is forgotten, so a damaged file is refused every time.
 */
class ContentCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; weight: number }>();
  private weight = 0;
  constructor(private readonly capacity: number) {}

  get(bytes: Uint8Array, weight: number, make: () => Promise<T>): Promise<T> {
    if (weight > this.capacity) return make();
    const key = createHash('sha256').update(bytes).digest('base64');
    const cached = this.entries.get(key);
    if (cached) {
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached.value;
    }
    const value = make();
    while (this.weight + weight > this.capacity) this.forget(this.entries.keys().next().value!);
    this.entries.set(key, { value, weight });
    this.weight += weight;
    value.catch(() => this.entries.get(key)?.value === value && this.forget(key));
    return value;
  }

  private forget(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}

const templates = new ContentCache<PdfTemplate | null>(64);

/** The template of a PDF (null: it must be rewritten whole), read on first use and kept by content. */
function pdfTemplate(bytes: Uint8Array): Promise<PdfTemplate | null> {
  return templates.get(bytes, 1, () => pdfLib().then((lib) => readPdfTemplate(lib, bytes)));
}

async function loadForStamping(lib: typeof import('pdf-lib'), bytes: Uint8Array) {
  const { EncryptedPDFError, PDFDocument } = lib;
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (e) {
    if (e instanceof EncryptedPDFError) throw new UnstampableError(PDF_ENCRYPTED);
    throw new UnstampableError(PDF_DAMAGED);
  }
  // A file cut off or with a broken page tree loads without complaint and fails here, on the pages
  // (no catalog, a page without a box): it is damaged for the user, not a server error.
  let pages: ReturnType<PDFDocument['getPages']>;
  try {
    pages = doc.getPages();
  } catch {
    throw new UnstampableError(PDF_DAMAGED);
  }
  if (pages.length === 0) throw new UnstampableError(PDF_NO_PAGES);
  return { doc, pages };
}

async function readPdfTemplate(lib: typeof import('pdf-lib'), bytes: Uint8Array): Promise<PdfTemplate | null> {
  const { doc, pages } = await loadForStamping(lib, bytes);
  const tail = readXrefTail(bytes);
  const { Root, Info, ID } = doc.context.trailerInfo;
  if (!tail || !(Root instanceof lib.PDFRef) || (Info && !(Info instanceof lib.PDFRef))) return null;
  const { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString } = lib;
  const context = doc.context;
  /** a dictionary's entries as PDF syntax, but the named ones */
  const entries = (dict: PDFDict | undefined, ...except: string[]) =>
    (dict?.entries() ?? [])
      .filter(([k]) => !except.includes(k.decodeText()))
      .map(([k, v]) => `\n${k.toString()} ${v.toString()}`)
      .join('');
  /** a name of the form EsmWm, EsmWm1, … that the dictionary does not have */
  const freeName = (dict: PDFDict | undefined) => {
    for (let i = 0; ; i++) if (!dict?.has(PDFName.of(`EsmWm${i || ''}`))) return `EsmWm${i || ''}`;
  };
  try {
    const out = pages.map((page): TemplatePage => {
      const node = page.node;
      const raw = node.get(PDFName.of('Contents'));
      const resolved = raw instanceof PDFRef ? context.lookup(raw) : raw;
      const contents = resolved instanceof PDFStream ? [raw!] : resolved instanceof PDFArray ? resolved.asArray() : [];
      if (contents.some((c) => !(c instanceof PDFRef))) throw new Error('content stream not referenced');
      const resources = node.Resources();
      const fonts = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
      const extGStates = resources?.lookupMaybe(PDFName.of('ExtGState'), PDFDict);
      const box = page.getCropBox();
      return {
        ref: page.ref,
        box: { x: box.x, y: box.y, width: box.width, height: box.height },
        entries: entries(node, 'Contents', 'Resources'),
        contents: contents.map(String).join(' '),
        resources: entries(resources, 'Font', 'ExtGState'),
        fonts: entries(fonts),
        extGStates: entries(extGStates),
        fontName: freeName(fonts),
        gsName: freeName(extGStates),
      };
    });
    const info = Info ? context.lookupMaybe(Info, PDFDict) : undefined;
    const keywords = info?.lookup(PDFName.of('Keywords'));
    return {
      tail,
      // pdf-lib forgets the object and cross-reference streams it unpacked: the trailer's size counts them
      size: Math.max(context.largestObjectNumber + 1, tail.size),
      root: Root,
      info: Info as PDFRef | undefined,
      id: ID,
      infoEntries: entries(info, 'Keywords'),
      keywords:
        keywords instanceof PDFString || keywords instanceof PDFHexString
          ? keywords.decodeText().split(/\s+/).filter(Boolean)
          : [],
      pages: out,
    };
  } catch {
    return null; // anything unusual in its structure: rewritten whole, as pdf-lib understands it
  }
}

/** The whole document rewritten by pdf-lib with the stamp: for files whose structure an update cannot follow. */
async function rewriteStampedPdf(
  lib: typeof import('pdf-lib'),
  bytes: Uint8Array,
  program: WatermarkFontProgram,
  text: string,
  copyCode?: string,
): Promise<Uint8Array> {
  const { doc, pages } = await loadForStamping(lib, bytes);
  const context = doc.context;
  // The q and Q streams pdf-lib wraps each page's own content in (normalize, below) are shared by
  // the document; given here uncompressed (a byte each), instead of deflated by pdf-lib's
  // JavaScript zlib, whose set-up alone costs more per call than these streams are worth.
  const shared = context as unknown as {
    pushGraphicsStateContentStreamRef?: PDFRef;
    popGraphicsStateContentStreamRef?: PDFRef;
  };
  shared.pushGraphicsStateContentStreamRef ??= context.register(context.stream('q\n'));
  shared.popGraphicsStateContentStreamRef ??= context.register(context.stream('Q\n'));
  const fontRef = embedWatermarkFont(lib, context, program);
  const gsRef = context.register(context.obj({ Type: 'ExtGState', ca: OPACITY, CA: OPACITY }));
  const hex = program.encode(text);
  const widthAt1 = program.widthOf(text);
  try {
    for (const page of pages) {
      // normalize() wraps the page's own content in q … Q, so whatever state it leaves cannot skew the stamp
      page.node.normalize();
      const fontKey = page.node.newFontDictionary(program.baseFont, fontRef);
      const gsKey = page.node.newExtGState('GS', gsRef);
      const content = stampContent(lib, page.getCropBox(), fontKey.decodeText(), gsKey.decodeText(), hex, widthAt1);
      page.node.addContentStream(context.register(context.stream(content, { Filter: 'FlateDecode' })));
    }
  } catch {
    throw new UnstampableError(PDF_DAMAGED);
  }
  if (copyCode)
    doc.setKeywords([...(doc.getKeywords()?.split(/\s+/).filter(Boolean) ?? []), `${COPY_CODE_KEYWORD}${copyCode}`]);
  // A form's field appearances are left as they are (regenerating them would embed other fonts).
  // No object streams: packing the objects into deflated streams (pdf-lib's JavaScript zlib) was
  // the largest single cost of a stamp; the page contents and the font stay compressed.
  return doc.save({ updateFieldAppearances: false, useObjectStreams: false });
}

/**
 * The stamp of one page size: the text tiled along the diagonal in the watermark's grey and
 * opacity — one text object that sets its font once and places each line by its text matrix —
 * deflated by node's zlib (pdf-lib would deflate it in JavaScript).
 */
function stampContent(
  lib: typeof import('pdf-lib'),
  box: { x: number; y: number; width: number; height: number },
  fontName: string,
  gsName: string,
  encoded: string,
  widthAt1: number,
): Buffer {
  const { PDFName } = lib;
  const size = sizeFor(box.width, box.height, 9, 72);
  const rad = (ANGLE_DEG * Math.PI) / 180;
  const [cos, sin] = [Math.cos(rad).toFixed(5), Math.sin(rad).toFixed(5)];
  const n = (v: number) => v.toFixed(2);
  let out = `q\n${PDFName.of(gsName).toString()} gs\nBT\n${PDFName.of(fontName).toString()} ${n(size)} Tf\n0.35 g\n`;
  for (const t of tiles(box.width, box.height, widthAt1 * size, size))
    out += `${cos} ${sin} -${sin} ${cos} ${n(box.x + t.x)} ${n(box.y + t.y)} Tm\n<${encoded}> Tj\n`;
  return deflateSync(`${out}ET\nQ\n`);
}

// ---- the watermark's font program, per set of characters -----------------------------------------

/**
 * The CJK font as a PDF embeds it for a watermark: a subset TrueType with every printable ASCII
 * character (account, time, address and copy code are drawn from them) and the text's other
 * characters (the supplier's name and the fixed words), with its widths and its ToUnicode map —
 * all of it the same for every copy whose text has the same non-ASCII characters. Building it
 * (fontkit's subsetting and layout, and the deflating of the subset) was the largest share of a
 * stamp's CPU, repeated for every copy although only a viewer's supplier changes it; it is built
 * once per set of characters and kept (WATERMARK_FONT_CACHE sets, least recently used dropped).
 */
interface WatermarkFontProgram {
  baseFont: string;
  /** The subset TrueType, deflated, and its length before. */
  fontFile: Uint8Array;
  fontFileLength: number;
  /** The ToUnicode CMap, deflated (copy-and-paste and text extraction give the text back). */
  toUnicode: Uint8Array;
  /** The CIDFont's W array: [first CID, [widths…]] runs, in 1/1000 em. */
  widths: (number | number[])[];
  descriptor: {
    flags: number;
    bbox: number[];
    italicAngle: number;
    ascent: number;
    descent: number;
    capHeight: number;
    xHeight: number;
  };
  /** Hex of the CIDs (the subset's glyph ids, CIDToGIDMap Identity) of a text drawn with it. */
  encode(text: string): string;
  /** The text's width at size 1. */
  widthOf(text: string): number;
}

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => 32 + i);
const WATERMARK_FONT_CACHE = 256;
const programs = new Map<string, Promise<WatermarkFontProgram>>();

/** The font program covering `text`, built on first use for its set of non-ASCII characters. */
function watermarkFontProgram(text: string): Promise<WatermarkFontProgram> {
  const extra = [...new Set(Array.from(text, (c) => c.codePointAt(0)!).filter((cp) => cp < 32 || cp > 126))].sort(
    (a, b) => a - b,
  );
  const key = String.fromCodePoint(...extra);
  let program = programs.get(key);
  if (program) {
    programs.delete(key); // most recently used last
  } else {
    program = watermarkFont().then(({ font }) => buildFontProgram(font, [...PRINTABLE_ASCII, ...extra], key));
    program.catch(() => programs.delete(key));
    if (programs.size >= WATERMARK_FONT_CACHE) programs.delete(programs.keys().next().value!);
  }
  programs.set(key, program);
  return program;
}

async function buildFontProgram(font: FontkitFont, codePoints: number[], key: string): Promise<WatermarkFontProgram> {
  const scale = 1000 / font.unitsPerEm;
  const subset = font.createSubset();
  const cidOf = new Map<number, number>();
  const advanceOf = new Map<number, number>();
  const unicodeOf = new Map<number, number>();
  for (const cp of codePoints) {
    const glyph = font.glyphForCodePoint(cp);
    const cid = subset.includeGlyph(glyph);
    cidOf.set(cp, cid);
    advanceOf.set(cp, glyph.advanceWidth * scale);
    if (glyph.id !== 0 && !unicodeOf.has(cid)) unicodeOf.set(cid, cp);
  }
  const ttf = await new Promise<Uint8Array>((resolve, reject) => {
    const parts: Uint8Array[] = [];
    (subset.encodeStream() as unknown as NodeJS.EventEmitter)
      .on('data', (b: Uint8Array) => parts.push(b))
      .on('end', () => resolve(Buffer.concat(parts)))
      .on('error', reject);
  });
  // W: runs of consecutive CIDs
  const byCid = [...new Map([...cidOf].map(([cp, cid]) => [cid, advanceOf.get(cp)!])).entries()].sort(
    (a, b) => a[0] - b[0],
  );
  const widths: (number | number[])[] = [];
  for (const [i, [cid, w]] of byCid.entries()) {
    if (i === 0 || cid !== byCid[i - 1]![0] + 1) widths.push(cid, []);
    (widths.at(-1) as number[]).push(w);
  }
  const hex4 = (n: number) => n.toString(16).padStart(4, '0');
  const utf16 = (cp: number) =>
    cp > 0xffff ? hex4(0xd800 + ((cp - 0x10000) >> 10)) + hex4(0xdc00 + ((cp - 0x10000) & 0x3ff)) : hex4(cp);
  const pairs = [...unicodeOf].sort((a, b) => a[0] - b[0]).map(([cid, cp]) => `<${hex4(cid)}> <${utf16(cp)}>`);
  const blocks: string[] = [];
  for (let i = 0; i < pairs.length; i += 100)
    blocks.push(`${Math.min(100, pairs.length - i)} beginbfchar\n${pairs.slice(i, i + 100).join('\n')}\nendbfchar`); // at most 100 a block
  const cmap = `/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n${blocks.join('\n')}\nendcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
  // a subset's name carries a six-letter tag of its own (ISO 32000-1, 9.6.4)
  const tag = Array.from(createHash('sha256').update(key).digest().subarray(0, 6), (b) =>
    String.fromCharCode(65 + (b % 26)),
  ).join('');
  const { bbox } = font;
  const os2 = (font as unknown as { 'OS/2'?: { sFamilyClass?: number } })['OS/2'];
  const familyClass = os2?.sFamilyClass ?? 0;
  // the FontDescriptor's flags as pdf-lib derives them: symbolic, plus fixed pitch, serif, script, italic
  const flags =
    4 |
    (font.post.isFixedPitch ? 1 : 0) |
    (familyClass >= 1 && familyClass <= 7 ? 2 : 0) |
    (familyClass === 10 ? 8 : 0) |
    (font.head.macStyle.italic ? 64 : 0);
  return {
    baseFont: `${tag}+${font.postscriptName || 'Font'}`,
    fontFile: deflateSync(ttf),
    fontFileLength: ttf.length,
    toUnicode: deflateSync(cmap),
    widths,
    descriptor: {
      flags,
      bbox: [bbox.minX * scale, bbox.minY * scale, bbox.maxX * scale, bbox.maxY * scale],
      italicAngle: font.italicAngle,
      ascent: font.ascent * scale,
      descent: font.descent * scale,
      capHeight: (font.capHeight || font.ascent) * scale,
      xHeight: (font.xHeight || 0) * scale,
    },
    encode: (text) => Array.from(text, (c) => hex4(cidOf.get(c.codePointAt(0)!) ?? 0)).join(''),
    widthOf: (text) => Array.from(text, (c) => advanceOf.get(c.codePointAt(0)!) ?? 0).reduce((a, b) => a + b, 0) / 1000,
  };
}

/** The font's objects in this document (as pdf-lib embeds a custom font: Type0, Identity-H); its reference. */
function embedWatermarkFont(
  lib: typeof import('pdf-lib'),
  context: PDFDocument['context'],
  p: WatermarkFontProgram,
): PDFRef {
  const { PDFString } = lib;
  const fontFile = context.register(context.stream(p.fontFile, { Filter: 'FlateDecode', Length1: p.fontFileLength }));
  const { flags, bbox, italicAngle, ascent, descent, capHeight, xHeight } = p.descriptor;
  const descriptor = context.register(
    context.obj({
      Type: 'FontDescriptor',
      FontName: p.baseFont,
      Flags: flags,
      FontBBox: bbox,
      ItalicAngle: italicAngle,
      Ascent: ascent,
      Descent: descent,
      CapHeight: capHeight,
      XHeight: xHeight,
      StemV: 0,
      FontFile2: fontFile,
    }),
  );
  const cidFont = context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      CIDToGIDMap: 'Identity',
      BaseFont: p.baseFont,
      CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 },
      FontDescriptor: descriptor,
      W: p.widths,
    }),
  );
  const toUnicode = context.register(context.stream(p.toUnicode, { Filter: 'FlateDecode' }));
  return context.register(
    context.obj({
      Type: 'Font',
      Subtype: 'Type0',
      BaseFont: p.baseFont,
      Encoding: 'Identity-H',
      DescendantFonts: [cidFont],
      ToUnicode: toUnicode,
    }),
  );
}

/**
 * A new PDF with the CJK font embedded as a subset (the glyphs it ends up using): for documents
 * the server writes itself (the countersign sign-off sheet), with the font read once per process.
 */
export async function newCjkPdf(): Promise<{ doc: PDFDocument; font: PDFFont; lib: typeof import('pdf-lib') }> {
  const [{ bytes: fontBytes, font: parsed }, lib] = await Promise.all([watermarkFont(), pdfLib()]);
  const doc = await lib.PDFDocument.create();
  doc.registerFontkit({ create: () => parsed } as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const font = await doc.embedFont(fontBytes, { subset: true });
  return { doc, font, lib };
}

// ---- images ------------------------------------------------------------------------------------

/** Beyond this the decoded bitmap alone would take ~256 MB: such scans belong in a PDF. */
export const IMAGE_MAX_PIXELS = 64_000_000;

/**
 * A PNG's or JPEG's width and height as its header states them (PNG IHDR; JPEG the first SOFn
 * frame), read without decoding: a 1 MB PNG of 16000×16000 pixels decodes to 1 GB, so the limit
 * is checked before the decoder runs. null when the header cannot be read.
 */
export function imageDimensions(b: Uint8Array, type: 'png' | 'jpg'): { w: number; h: number } | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // the IHDR chunk comes first, right after the 8-byte signature
  if (type === 'png')
    return b.length >= 24 && v.getUint32(12) === 0x49484452 ? { w: v.getUint32(16), h: v.getUint32(20) } : null;
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    // SOF0–SOF15 carry the frame's size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { w: v.getUint16(at + 7), h: v.getUint16(at + 5) };
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame
    at += 2 + v.getUint16(at + 2);
  }
  return null;
}

const IMAGE_DAMAGED = '图片文件已损坏，无法添加水印，请联系管理员';
const tooLarge = (w: number, h: number) =>
  new UnstampableError(`图片尺寸过大（${w}×${h}），无法添加水印，请联系管理员改为上传 PDF`);

type DecodedImage = Awaited<ReturnType<(typeof import('@napi-rs/canvas'))['loadImage']>>;

/**
 * Decoded images kept by content, most recently used last, up to this many bytes of pixels (4 a
 * pixel): decoding was a seventh of a stamped PNG's CPU (a 1200 × 800 drawing: ~6 of ~40 ms), and
 * the same few drawings are opened all day. Eight such drawings fit; a larger scan is decoded for
 * each copy and not kept (docs/benchmarks.md, archive-stamp).
 */
export const IMAGE_CACHE_BYTES = 32 * 1024 * 1024;
const images = new ContentCache<DecodedImage>(IMAGE_CACHE_BYTES);

/** `bytes` decoded, from the cache when it holds them; refused (UnstampableError) as stampImage refuses. */
function decodedImage(
  canvas: typeof import('@napi-rs/canvas'),
  bytes: Uint8Array,
  type: 'png' | 'jpg',
): Promise<DecodedImage> {
  const stated = imageDimensions(bytes, type);
  if (!stated) return Promise.reject(new UnstampableError(IMAGE_DAMAGED));
  if (stated.w * stated.h > IMAGE_MAX_PIXELS) return Promise.reject(tooLarge(stated.w, stated.h));
  return images.get(bytes, stated.w * stated.h * 4, () => decodeImage(canvas, bytes));
}

async function decodeImage(canvas: typeof import('@napi-rs/canvas'), bytes: Uint8Array): Promise<DecodedImage> {
  let img: DecodedImage;
  try {
    img = await canvas.loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch {
    throw new UnstampableError(IMAGE_DAMAGED);
  }
  const { width: w, height: h } = img;
  if (!w || !h) throw new UnstampableError(IMAGE_DAMAGED);
  if (w * h > IMAGE_MAX_PIXELS) throw tooLarge(w, h);
  return img;
}

/**
 * Stamps a PNG or JPEG and encodes it back to the same format at the same size.
 *
 * A phone or scanner JPEG often stores its pixels sideways with an EXIF Orientation tag. Skia's
 * decoder behind @napi-rs/canvas' loadImage (1.x) already applies that tag: width/height are
 * the upright ones and drawImage paints upright. The re-encoded copy carries no EXIF, so the
 * turn lives in its pixels only and no viewer turns it twice. Do not rotate here again;
 * files.test.ts ("EXIF Orientation 6") fails if a canvas upgrade stops doing this.
 */
export async function stampImage(bytes: Uint8Array, type: 'png' | 'jpg', text: string): Promise<Buffer> {
  const canvasModule = await canvasLib();
  registerCanvasFont(canvasModule);
  const img = await decodedImage(canvasModule, bytes, type);
  const { width: w, height: h } = img;
  const surface = takeSurface(canvasModule, w, h);
  const ctx = surface.canvas.getContext('2d');
  ctx.save(); // a surface comes back as it was given out: no transform, no alpha, no font carried over
  try {
    if (type === 'jpg') {
      ctx.fillStyle = '#ffffff'; // JPEG has no alpha: keep what a viewer would have seen
      ctx.fillRect(0, 0, w, h);
    } else ctx.clearRect(0, 0, w, h); // the last copy drawn on this surface
    ctx.drawImage(img, 0, 0);
    const size = Math.round(sizeFor(w, h, 12, 160));
    ctx.font = `${size}px "${CANVAS_FONT_FAMILY}"`;
    ctx.fillStyle = '#595959';
    ctx.globalAlpha = OPACITY + 0.07; // pixels show less contrast than vector text on paper
    ctx.textBaseline = 'alphabetic';
    const textWidth = ctx.measureText(text).width;
    const rad = (ANGLE_DEG * Math.PI) / 180;
    // tiles() speaks y-up: flip into the canvas' y-down space, then draw each line rotated.
    for (const t of tiles(w, h, textWidth, size)) {
      ctx.save();
      ctx.translate(t.x, h - t.y);
      ctx.rotate(-rad);
      ctx.fillText(text, 0, 0);
      ctx.restore();
    }
    if (type === 'jpg') return await surface.canvas.encode('jpeg', 90);
    // The canvas keeps its pixels premultiplied, PNG stores them straight: getImageData reads them
    // out straight in one native pass, where data() and a JS loop over every pixel took longer.
    const { data } = ctx.getImageData(0, 0, w, h);
    surface.rows ??= Buffer.allocUnsafe(pngRowsLength(w, h));
    return await encodePng(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), w, h, surface.rows);
  } finally {
    ctx.restore();
    giveBackSurface(surface);
  }
}

/** A canvas of one size and, once a PNG was encoded on it, the encoder's row buffer: reused by the next copy. */
interface Surface {
  canvas: import('@napi-rs/canvas').Canvas;
  rows?: Buffer;
  bytes: number;
}

/**
 * Up to this many bytes of idle surfaces are kept (two 1200 × 800 ones, as many as
 * STAMP_CONCURRENCY stamps at a time). A new canvas and row buffer for every copy were two fresh
 * multi-megabyte allocations each time: with the start script's allocator and heap flags (memory
 * handed back to the system at once, a tight heap) they cost more than drawing the copy — ~40 %
 * of a stamped PNG's CPU (docs/benchmarks.md, archive-stamp).
 */
export const SURFACE_POOL_BYTES = 16 * 1024 * 1024;
const idleSurfaces: (Surface & { w: number; h: number })[] = [];

function takeSurface(canvas: typeof import('@napi-rs/canvas'), w: number, h: number) {
  const i = idleSurfaces.findIndex((s) => s.w === w && s.h === h);
  if (i >= 0) return idleSurfaces.splice(i, 1)[0]!;
  return { canvas: canvas.createCanvas(w, h), w, h, bytes: w * h * 4 + pngRowsLength(w, h) };
}

function giveBackSurface(surface: Surface & { w: number; h: number }) {
  if (surface.bytes > SURFACE_POOL_BYTES) return;
  idleSurfaces.push(surface);
  let kept = idleSurfaces.reduce((sum, s) => sum + s.bytes, 0);
  while (kept > SURFACE_POOL_BYTES) kept -= idleSurfaces.shift()!.bytes; // the longest idle first
}

// ---- by file type ------------------------------------------------------------------------------

/**
 * Refuses at upload what could not be stamped when someone opens it (a damaged or encrypted PDF,
 * a damaged or oversized image): stamped once here with a throwaway text, so a version or an
 * attachment that is accepted is one a supplier can open. 400 on the `file` field, in the
 * uploader's words.
 */
export async function refuseUnstampable(bytes: Uint8Array, type: string): Promise<void> {
  if (type !== 'pdf' && type !== 'png' && type !== 'jpg') return;
  try {
    await stampFile(bytes, type, '上传校验');
  } catch (e) {
    if (!(e instanceof UnstampableError)) throw e;
    const why = `${e.message.split('，请联系管理员')[0]}，未上传；请检查文件后重新上传`;
    throw badRequest(why, [{ field: 'file', message: why }]);
  }
}

/** Whether stampFile changes this type's bytes (PDFs and images); the others can stream as stored. */
export const isStampedType = (type: FileType): boolean => type === 'pdf' || type === 'png' || type === 'jpg';

/** The bytes to serve for a stored file: stamped PDFs and images; DWG/DXF unchanged (their name carries the stamp). */
export async function stampFile(
  bytes: Uint8Array,
  type: FileType,
  text: string,
  copyCode?: string,
): Promise<Uint8Array> {
  switch (type) {
    case 'pdf':
      return stampPdf(bytes, text, copyCode);
    case 'png':
    case 'jpg':
      return stampImage(bytes, type, text);
    case 'dwg':
    case 'dxf':
      return bytes;
  }
}
