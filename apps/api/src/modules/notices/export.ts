/**
 * haier/tableChangeLog/exportSuppliers: one notice's recipients matrix as a streamed .xlsx — the
 * same filter and order as the matrix page (modules/notices/query.ts), read in keyset batches and
 * written with exceljs' streaming WorkbookWriter, waiting for the client between batches (the
 * pattern of modules/export). A second sheet lists the notice's changes.
 */
import type { Writable } from 'node:stream';
import {
  NOTICE_STATUS_LABELS,
  RECIPIENT_STATUS_LABELS,
  type ColumnModes,
  type NoticeDetail,
  type RecipientRow,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { cstDateTime } from '../../lib/dates.ts';
import { addSheet, appendRecords, openWorkbook } from '../../lib/workbook.ts';
import { governExportColumns, type GovernedExportColumn } from '../../lib/permission-rules.ts';
import {
  recipientSelect,
  recipientWhere,
  toRecipientRow,
  type RecipientFilterQuery,
  type RecipientRecord,
} from './query.ts';

const at = (iso: string | null) => (iso ? cstDateTime(new Date(iso)) : '');

/** `field`: a governed column (NOTICE_RECIPIENT_COLUMNS), hidden or masked as in the matrix. */
export const RECIPIENT_COLUMNS: GovernedExportColumn<RecipientRow>[] = [
  { header: '供应商编码', width: 14, value: (r) => r.supplierCode },
  { header: '供应商名称', width: 30, value: (r) => r.supplierName },
  {
    header: '接收依据（供货物料）',
    width: 36,
    value: (r) => r.basis.map((b) => `${b.materialCode} ${b.materialName}`).join('；'),
  },
  { header: '状态', width: 10, value: (r) => RECIPIENT_STATUS_LABELS[r.status] },
  { header: '逾期', width: 8, value: (r) => (r.overdue ? '是' : '否') },
  { header: '阅读时间', width: 20, value: (r) => at(r.readAt) },
  { header: '阅读人', width: 14, field: 'readByName', value: (r) => r.readByName ?? '' },
  { header: '阅读人账号', width: 14, field: 'readByAccount', value: (r) => r.readByAccount ?? '' },
  { header: '阅读IP', width: 16, field: 'readIp', value: (r) => r.readIp ?? '' },
  { header: '确认时间', width: 20, value: (r) => at(r.confirmedAt) },
  { header: '确认人', width: 14, field: 'confirmedByName', value: (r) => r.confirmedByName ?? '' },
  { header: '确认人账号', width: 14, field: 'confirmedByAccount', value: (r) => r.confirmedByAccount ?? '' },
  { header: '确认IP', width: 16, field: 'confirmedIp', value: (r) => r.confirmedIp ?? '' },
  {
    header: '确认的文件版本（sha256）',
    width: 60,
    value: (r) => r.confirmedFiles.map((f) => `${f.standardCode} ${f.version}（${f.sha256}）`).join('\n'),
  },
  { header: '催办次数', width: 10, value: (r) => r.remindCount },
  { header: '最近催办', width: 20, value: (r) => at(r.lastRemindedAt) },
];

/** Every matching recipient in supplier-code order, `size` rows a query (keyset on code, id). */
async function* recipientBatches(
  db: Db,
  noticeId: number,
  q: RecipientFilterQuery,
  now: Date,
  size = 1000,
): AsyncGenerator<RecipientRow[]> {
  let last: { code: string; id: number } | undefined;
  const base = recipientWhere(noticeId, q, now);
  for (;;) {
    const after = last ? Prisma.sql`AND (r.supplier_code, r.id) > (${last.code}, ${last.id})` : Prisma.empty;
    const batch = await readRows<RecipientRecord>(
      db,
      Prisma.sql`${recipientSelect(now)} ${base} ${after} ORDER BY r.supplier_code, r.id LIMIT ${size}`,
    );
    if (batch.length) yield batch.map(toRecipientRow);
    if (batch.length < size) return;
    const end = batch[batch.length - 1]!;
    last = { code: end.supplier_code, id: end.id };
  }
}

/** Writes the workbook into `out` and ends it; stops early when the client goes away. */
export async function writeRecipientWorkbook(
  db: Db,
  notice: NoticeDetail,
  q: RecipientFilterQuery,
  out: Writable,
  now = new Date(),
  modes: ColumnModes = {},
): Promise<number> {
  const columns = governExportColumns(RECIPIENT_COLUMNS, modes);
  const workbook = await openWorkbook(out);
  const sheet = addSheet(workbook, '接收方', columns);
  const { written, complete } = await appendRecords(sheet, columns, recipientBatches(db, notice.id, q, now), out);
  if (!complete) return written;

  const info = workbook.addWorksheet('变更通知');
  info.columns = [{ width: 16 }, { width: 24 }, { width: 12 }, { width: 12 }, { width: 12 }, { width: 30 }];
  const line = (...cells: (string | number)[]) => info.addRow(cells).commit();
  line('编号', notice.number);
  line('标题', notice.title);
  line('状态', NOTICE_STATUS_LABELS[notice.status]);
  line('产品线', notice.productLineName);
  line('变更原因', notice.reason);
  line('确认截止日期', notice.dueDate);
  line('发布时间', at(notice.publishedAt));
  line('导出时间', cstDateTime(now));
  line('');
  const head = info.addRow(['标准编号', '名称', '原版本', '新版本', '新版本状态', '物料']);
  head.font = { bold: true };
  head.commit();
  for (const c of notice.changes)
    line(
      c.standardCode,
      c.name,
      c.oldFile?.version ?? '（新增）',
      c.newFile.version,
      c.newFile.status === 'EFFECTIVE' ? '生效' : c.newFile.status === 'HISTORY' ? '已被替代' : '已作废',
      `${c.materialCode} ${c.materialName}`,
    );
  info.commit();
  await workbook.commit();
  return written;
}
