/**
 * The Excel export of the archive list (searchDrawingFileInformations/drawingExportExcel): the
 * same filters and order as haier/standardFile/getStandardFilePager, written with exceljs'
 * streaming WorkbookWriter while the rows are read in keyset batches — at no time is more than
 * one batch in memory, whatever the row count.
 */
import type { Writable } from 'node:stream';
import {
  FILE_CATEGORY_LABELS,
  FILE_STATUS_LABELS,
  SECRET_LEVEL_LABELS,
  type ColumnModes,
  type FileCategory,
  type FileStatus,
  type SecretLevel,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cstDateTime } from '../../lib/dates.ts';
import { governExportColumns, type GovernedExportColumn } from '../../lib/permission-rules.ts';
import { addSheet, appendRecords, openWorkbook, readAhead } from '../../lib/workbook.ts';
import { fileBatches, type FileFilter, type FileRecord, type FileSort } from '../archives/index.ts';

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

/** The columns a caller gets: the list's rule (lib/permission-rules.ts). */
export const governedColumns = (columns: readonly ExportColumn[], modes: ColumnModes): ExportColumn[] =>
  governExportColumns(columns, modes);

/**
 * Writes the workbook into `out` and ends it. Stops early (without error) when `out` is closed
 * by the client; waits for `out` to drain between batches so a slow client holds back the reads.
 */
export async function writeArchiveWorkbook(
  db: Db,
  filter: FileFilter,
  sort: FileSort,
  out: Writable,
  batchSize = 1000,
  modes: ColumnModes = {},
): Promise<number> {
  const columns = governedColumns(EXPORT_COLUMNS, modes);
  const workbook = await openWorkbook(out);
  const sheet = addSheet(workbook, '图纸档案信息', columns);
  const { written, complete } = await appendRecords(
    sheet,
    columns,
    readAhead(fileBatches(db, filter, sort, batchSize)),
    out,
  );
  if (complete) await workbook.commit();
  return written;
}
