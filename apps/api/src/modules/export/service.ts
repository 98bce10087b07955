/**
 * The Excel export of the archive list (searchDrawingFileInformations/drawingExportExcel): the
 * same filters and order as haier/standardFile/getStandardFilePager, written with exceljs'
 * streaming WorkbookWriter while the rows are read in keyset batches — at no time is more than
 * one batch in memory, whatever the row count.
 */
import type { Writable } from 'node:stream';
import type { Style } from 'exceljs';
import { FILE_CATEGORY_LABELS, FILE_STATUS_LABELS, SECRET_LEVEL_LABELS, type ColumnModes, type FileCategory, type FileStatus, type SecretLevel } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cstDateTime } from '../../lib/dates.ts';
import { governExportColumns, type GovernedExportColumn } from '../permissions/apply.ts';
import { fileBatches, type FileFilter, type FileRecord, type FileSort } from '../archives/file-query.ts';


/** `field`: the row field of a governed column (ARCHIVE_FILE_COLUMNS), hidden or masked as in the list. */
export type ExportColumn = GovernedExportColumn<FileRecord>;

export const EXPORT_COLUMNS: ExportColumn[] = [
  { header: '标准编号', width: 20, value: (r) => r.standard_code },
  { header: '名称', width: 30, value: (r) => r.name },
  { header: '版本', width: 8, value: (r) => r.version },
  { header: '物料编码', width: 16, value: (r) => r.material_code },
  { header: '物料名称', width: 24, value: (r) => r.material_name },
  { header: '产品线', width: 10, value: (r) => r.product_line_name },
  { header: '类别', width: 10, value: (r) => FILE_CATEGORY_LABELS[r.category as FileCategory] ?? r.category },
  { header: '保密等级', width: 10, value: (r) => SECRET_LEVEL_LABELS[r.secret_level as SecretLevel] ?? r.secret_level },
  { header: '状态', width: 10, value: (r) => FILE_STATUS_LABELS[r.status as FileStatus] ?? r.status },
  { header: '生效日期', width: 12, value: (r) => r.effective_date },
  { header: '文件名', width: 30, value: (r) => r.file_name },
  { header: '文件大小(KB)', width: 14, value: (r) => Math.round((r.file_size / 1024) * 100) / 100 },
  { header: '上传人', width: 10, field: 'uploaderName', value: (r) => r.uploader_name },
  { header: '上传时间', width: 20, value: (r) => cstDateTime(r.created_at) },
  { header: '作废时间', width: 20, value: (r) => cstDateTime(r.obsoleted_at) },
  { header: '作废原因', width: 30, field: 'obsoleteReason', value: (r) => r.obsolete_reason ?? '' },
];

/** The columns a caller gets (issue 14): the list's rule (modules/permissions/apply.ts). */
export const governedColumns = (columns: readonly ExportColumn[], modes: ColumnModes): ExportColumn[] => governExportColumns(columns, modes);

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
 * Writes the workbook into `out` and ends it. Stops early (without error) when `out` is closed
 * by the client; waits for `out` to drain between batches so a slow client holds back the reads.
 */
export async function writeArchiveWorkbook(db: Db, filter: FileFilter, sort: FileSort, out: Writable, batchSize = 1000, modes: ColumnModes = {}): Promise<number> {
  const columns = governedColumns(EXPORT_COLUMNS, modes);
  // exceljs (~30 MB resident) is loaded by the first export, not at start-up
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('图纸档案信息', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let written = 0;
  for await (const batch of readAhead(fileBatches(db, filter, sort, batchSize))) {
    if (out.destroyed) return written;
    for (const r of batch) {
      const row = sheet.addRow(columns.map((c) => c.value(r)));
      row.eachCell((cell) => {
        cell.style = PLAIN;
      });
      row.commit();
    }
    written += batch.length;
    await sheetDrained(sheet, out);
    if (out.writableNeedDrain && !out.destroyed) await drainOrClose(out, out);
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
