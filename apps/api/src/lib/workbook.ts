/**
 * Writing .xlsx (exceljs' streaming WorkbookWriter), shared by every export: rows go out as they
 * are read, the writer waits for the compressor and for the client when either falls behind, and
 * stops without error when the client went away. The archive export (modules/export), the notice
 * recipients, the census and access report, the phone log and the BOM exports all write through
 * `openWorkbook` → `addSheet` → `appendRows`, or `sendWorkbook` for a list already in memory.
 */
import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Style, Worksheet, stream } from 'exceljs';
import { cstStamp } from './dates.ts';

export type Cell = string | number;
export interface Column<R> {
  header: string;
  width: number;
  value: (r: R) => Cell;
}
export interface Sheet {
  name: string;
  columns: { header: string; width: number }[];
  rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a stream buffers, old (readable-stream 2/3) or new (Node) style. */
interface BufferingStream {
  writableLength?: number;
  _writableState?: { length: number };
  once(event: string, fn: () => void): unknown;
  removeListener(event: string, fn: () => void): unknown;
}

/**
 * Resolves on `stream`'s next 'drain' or when `out` closes (the client went away), and removes
 * both listeners either way: an export waits ~100 times, and listeners left on `out` by the
 * wait that lost would pile up (MaxListenersExceededWarning, a small leak per export).
 */
export function drainOrClose(stream: BufferingStream, out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.removeListener('drain', done);
      out.removeListener('close', done);
      resolve();
    };
    stream.once('drain', done);
    out.once('close', done);
  });
}

/** The exceljs zip entry a worksheet's XML goes into (exceljs 4 internals), if it can be found. */
export function sheetEntry(sheet: unknown): BufferingStream | undefined {
  return (sheet as { _stream?: { pipes?: BufferingStream[] } })._stream?.pipes?.[0];
}

/** Above this much XML waiting for the compressor, the export stops reading rows until it drains. */
const SHEET_BUFFER_MAX = 256 * 1024;

/**
 * exceljs' worksheet stream (its StreamBuf) hands each 64 KB of row XML to the zip entry it is
 * piped into without looking at write()'s result, so when deflate is slower than the rows come in
 * (it is: ~15k rows/s vs ~40k rows/s read), the XML piles up in that entry's buffer — tens of MB
 * at 100k rows. Waiting here until the entry's buffer has drained gives the export real
 * backpressure from the compressor as well as from the client (`out`). The entry is found through
 * exceljs 4 internals (`_stream.pipes`); if a later version moves them, this waits for nothing
 * and the export still works, only with the old memory profile (docs/benchmarks.md).
 */
async function sheetDrained(sheet: unknown, out: Writable): Promise<void> {
  const entry = sheetEntry(sheet);
  if (!entry) return;
  const buffered = () => entry.writableLength ?? entry._writableState?.length ?? 0;
  while (buffered() > SHEET_BUFFER_MAX && !out.destroyed) await drainOrClose(entry, out);
}

/**
 * The style of every data cell: one object for all of them. exceljs gives each cell a style object
 * of its own (an empty `{}` here) and, when a row is committed, looks each one up in its style
 * table by rendering it to XML — 40 % of the export's CPU (a CPU profile: styles-xform
 * addStyleModel → _addStyle). A style object it has seen before is found in a WeakMap instead.
 */
const PLAIN: Partial<Style> = {};

/**
 * `batches`, with the next one already being read while the caller works on the current one
 * (the query runs while the rows are rendered and compressed). At most two batches in memory.
 */
export async function* readAhead<T>(batches: AsyncGenerator<T>): AsyncGenerator<T> {
  let next = batches.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = batches.next();
      next.catch(() => undefined); // if the caller stops early, a failed read-ahead is nobody's error
      yield r.value;
    }
  } finally {
    await batches.return(undefined);
  }
}

/**
 * How hard the zip deflates the sheets. zlib's default (6) was ~15 % of an export's CPU (a CPU
 * profile of the 3,000-row export: processChunk); level 1 deflates the row XML ~4× faster for a
 * file ~20 % larger, and an export is made on request, downloaded once, over the company network.
 */
export const XLSX_DEFLATE_LEVEL = 1;

/** A streaming workbook writing into `out` (exceljs, ~30 MB resident, is loaded by the first export). */
export async function openWorkbook(out: Writable): Promise<stream.xlsx.WorkbookWriter> {
  const { default: ExcelJS } = await import('exceljs');
  return new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: XLSX_DEFLATE_LEVEL } },
  });
}

/** A sheet with its header row (bold, frozen) already written. */
export function addSheet(
  workbook: stream.xlsx.WorkbookWriter,
  name: string,
  columns: readonly { header: string; width: number }[],
): Worksheet {
  const sheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map(({ header, width }) => ({ header, width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return sheet;
}

/** The exceljs 4 WorksheetWriter state that `writeRowsXml` reads and advances. */
interface SheetWriterState {
  startedData?: boolean;
  _rows?: unknown[] | null;
  _rowZero?: number;
  stream?: { write(chunk: string): unknown };
}

/** Column letters A, B, …, Z, AA, … of the first `n` columns (1-based as exceljs numbers them). */
const LETTERS: string[] = [];
function columnLetter(index: number): string {
  while (LETTERS.length <= index) {
    let n = LETTERS.length + 1;
    let s = '';
    while (n > 0) {
      const m = (n - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      n = (n - 1 - m) / 26;
    }
    LETTERS.push(s);
  }
  return LETTERS[index]!;
}

// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL_ALL = /[<>&'"\x7F\x00-\x08\x0B-\x0C\x0E-\x1F]/g;
const XML_ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' };

/**
 * exceljs' xmlEncode, character for character: the five XML specials as entities, and the
 * control characters XML 1.0 cannot carry (all below 0x20 but tab, LF, CR; and DEL) dropped.
 */
export function xmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_SPECIAL_ALL, (c) => XML_ENTITY[c] ?? '') : text;
}

/**
 * The `<row>` XML exceljs writes for `cells` as row `number` with every cell in the PLAIN style
 * (style id 0, so no `s` attribute): a string is `t="str"` with its text in `<v>`, a number its
 * `String()`. Undefined for a row holding anything else (null, undefined, a Date, a boolean, an
 * object — exceljs' spans and types for those are its own business): exceljs writes that one.
 */
export function rowXml(number: number, cells: readonly unknown[]): string | undefined {
  let body = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (typeof v === 'string') body += `<c r="${columnLetter(i)}${number}" t="str"><v>${xmlText(v)}</v></c>`;
    else if (typeof v === 'number') body += `<c r="${columnLetter(i)}${number}"><v>${String(v)}</v></c>`;
    else return undefined;
  }
  // exceljs writes no <row> for a row without cells
  return cells.length ? `<row r="${number}" spans="1:${cells.length}" x14ac:dyDescent="0.25">${body}</row>` : '';
}

/**
 * Writes `rows` as the sheet's next rows straight into exceljs' own sheet stream (the zip entry
 * of this worksheet), as one string: the same XML as `addRow` + `commit` (test/xlsx-rows.test.ts
 * unpacks both and compares every cell), without a Row, a Cell, a style lookup and an xml-stream
 * per cell — exceljs' per-cell rendering was ~45 % of the export's CPU after the style fix and put
 * the xlsx at ~3× the CSV's CPU (the history of docs/benchmarks.md). Everything else (header, styles,
 * widths, frozen pane, the zip) is still exceljs'. False — nothing written — when the writer's
 * state is not the exceljs 4 one this relies on (data started, no uncommitted row) or a row holds
 * a value `rowXml` does not render: the caller then writes the rows through exceljs.
 */
function writeRowsXml(sheet: Worksheet, rows: readonly Cell[][]): boolean {
  const state = sheet as unknown as SheetWriterState;
  if (
    state.startedData !== true ||
    !Array.isArray(state._rows) ||
    state._rows.length !== 0 ||
    typeof state._rowZero !== 'number' ||
    typeof state.stream?.write !== 'function'
  )
    return false;
  let number = state._rowZero;
  let xml = '';
  for (const cells of rows) {
    const row = rowXml(number++, cells);
    if (row === undefined) return false;
    xml += row;
  }
  if (xml) state.stream.write(xml);
  state._rowZero = number;
  return true;
}

/** The rows through exceljs' own Row and Cell objects, every cell in the PLAIN style: what `writeRowsXml` must equal. */
export function addRowsViaExceljs(sheet: Worksheet, rows: readonly Cell[][]): void {
  for (const cells of rows) {
    const row = sheet.addRow(cells);
    row.eachCell((cell) => {
      cell.style = PLAIN;
    });
    row.commit();
  }
}

/**
 * Writes a batch of rows (as XML of its own, `writeRowsXml`, else through exceljs), every cell in
 * the one shared PLAIN style, then waits for the compressor and the client. False when the client
 * has gone away: the caller stops reading.
 */
export async function appendRows(sheet: Worksheet, rows: readonly Cell[][], out: Writable): Promise<boolean> {
  if (out.destroyed) return false;
  if (!writeRowsXml(sheet, rows)) addRowsViaExceljs(sheet, rows);
  await sheetDrained(sheet, out);
  if (out.writableNeedDrain && !out.destroyed) await drainOrClose(out, out);
  return !out.destroyed;
}

/**
 * Appends each batch of records to `sheet` as `columns` print them, then commits the sheet. `complete`
 * is false when the client went away part-way (the sheet is left as it was): the caller stops there.
 */
export async function appendRecords<R>(
  sheet: Worksheet,
  columns: readonly Pick<Column<R>, 'value'>[],
  batches: AsyncIterable<R[]>,
  out: Writable,
): Promise<{ written: number; complete: boolean }> {
  let written = 0;
  for await (const batch of batches) {
    if (
      !(await appendRows(
        sheet,
        batch.map((r) => columns.map((c) => c.value(r))),
        out,
      ))
    )
      return { written, complete: false };
    written += batch.length;
  }
  sheet.commit();
  return { written, complete: true };
}

/** Writes the sheets into `out` and ends it; stops early when the client went away. */
export async function writeWorkbook(out: Writable, sheets: Sheet[]): Promise<void> {
  const workbook = await openWorkbook(out);
  for (const s of sheets) {
    const sheet = addSheet(workbook, s.name, s.columns);
    for await (const batch of s.rows) if (!(await appendRows(sheet, batch, out))) return;
    sheet.commit();
  }
  await workbook.commit();
}

/** Answers a streamed workbook named `name` (Chinese, with an ASCII fallback) of `rows` rows. */
export function sendWorkbook(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  rows: number,
  sheets: Sheet[],
) {
  return sendXlsx(request, reply, name, rows, (out) => writeWorkbook(out, sheets));
}

/**
 * Answers the .xlsx `write` streams into `out`, as `name_<time>.xlsx` (Chinese, with an ASCII
 * fallback) with the row count in X-Total-Rows for the web's progress. A failure after the
 * headers went out can only cut the download short, and is logged.
 */
export function sendXlsx(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  rows: number,
  write: (out: Writable) => Promise<unknown>,
) {
  const out = new PassThrough();
  write(out).catch((err: unknown) => {
    request.log.error({ err }, 'export failed');
    out.destroy(err as Error);
  });
  const file = `${name}_${cstStamp(new Date())}.xlsx`;
  return reply
    .header('content-type', XLSX)
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(file)}`)
    .header('cache-control', 'no-store')
    .header('x-total-rows', String(rows))
    .send(out);
}
