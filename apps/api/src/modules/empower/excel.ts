/**
 * The census and the access report as .xlsx, written with exceljs' streaming WorkbookWriter as
 * the archive export is (modules/export): rows go out as they are read, and the writer waits for
 * the client when it falls behind.
 */
import {
  GRANT_SOURCE_LABELS,
  LOG_ACTION_LABELS,
  type AccessReport,
  type CensusRow,
  type ColumnModes,
  type ReportEvent,
  type ReportGrant,
} from '@esm/contracts';
import { governExportColumns, type GovernedExportColumn } from '../../lib/permission-rules.ts';
import { cstDateTime } from '../../lib/dates.ts';
import type { Cell, Column, Sheet } from '../../lib/workbook.ts';

const at = (iso: string | null) => (iso ? cstDateTime(new Date(iso)) : '');

const sheetOf = <R>(name: string, columns: Column<R>[], rows: Iterable<R>): Sheet => ({
  name,
  columns: columns.map(({ header, width }) => ({ header, width })),
  rows: [[...rows].map((r) => columns.map((c) => c.value(r)))],
});

// ---- the census ----------------------------------------------------------------------------------

export const CENSUS_COLUMNS: Column<CensusRow>[] = [
  { header: '供应商编码', width: 14, value: (r) => r.supplierCode },
  { header: '供应商名称', width: 32, value: (r) => r.supplierName },
  { header: '供货物料', width: 10, value: (r) => r.supplied },
  { header: '有效授权', width: 10, value: (r) => r.valid },
  { header: '即将到期', width: 10, value: (r) => r.expiring },
  { header: '已过期', width: 10, value: (r) => r.expired },
  { header: '未授权物料', width: 12, value: (r) => r.unauthorized },
  { header: '待审批申请', width: 12, value: (r) => r.pending },
  { header: '可查看图纸', width: 12, value: (r) => r.viewable },
];

export const censusSheets = (rows: CensusRow[]): Sheet[] => [sheetOf('供应商统计', CENSUS_COLUMNS, rows)];

// ---- the access report ------------------------------------------------------------------------------

const GRANT_COLUMNS: Column<ReportGrant>[] = [
  { header: '授权编号', width: 10, value: (r) => r.grantId },
  { header: '供应商编码', width: 12, value: (r) => r.supplierCode },
  { header: '供应商名称', width: 28, value: (r) => r.supplierName },
  { header: '物料编码', width: 14, value: (r) => r.materialCode },
  { header: '物料名称', width: 18, value: (r) => r.materialName },
  { header: '现供货', width: 8, value: (r) => (r.suppliesNow ? '是' : '否') },
  { header: '生效时间', width: 20, value: (r) => at(r.validFrom) },
  { header: '到期时间', width: 20, value: (r) => at(r.validUntil) },
  { header: '来源', width: 10, value: (r) => GRANT_SOURCE_LABELS[r.imported ? 'IMPORTED' : 'APPLICATION'] },
  { header: '申请编号', width: 10, value: (r) => r.applicationId ?? '' },
  { header: '申请人', width: 16, value: (r) => r.applicantName ?? '' },
  { header: '审批人', width: 14, value: (r) => (r.approverName ? `${r.approverName}（${r.approverAccount}）` : '') },
  { header: '审批时间', width: 20, value: (r) => at(r.approvedAt) },
  { header: '撤销时间', width: 20, value: (r) => at(r.revokedAt) },
  { header: '撤销人', width: 12, value: (r) => r.revokedByName ?? '' },
  { header: '撤销原因', width: 24, value: (r) => r.revokeReason ?? '' },
  { header: '查看次数', width: 10, value: (r) => r.views },
  { header: '下载次数', width: 10, value: (r) => r.downloads },
  { header: '打印次数', width: 10, value: (r) => r.prints },
  { header: '最近访问', width: 20, value: (r) => at(r.lastAccessAt) },
];

/** `field`: the governed path of ACCESS_REPORT_COLUMNS the column shows (governExportColumns). */
const EVENT_COLUMNS: GovernedExportColumn<ReportEvent>[] = [
  { header: '时间', width: 20, value: (r) => at(r.createdAt) },
  { header: '操作', width: 8, value: (r) => LOG_ACTION_LABELS[r.action] },
  { header: '供应商编码', width: 12, value: (r) => r.supplierCode },
  { header: '供应商名称', width: 28, value: (r) => r.supplierName ?? '' },
  { header: '账号', width: 14, field: 'events.userAccount', value: (r) => r.userAccount ?? '' },
  { header: '姓名', width: 16, field: 'events.userName', value: (r) => r.userName ?? '' },
  { header: '标准编号', width: 18, value: (r) => r.standardCode ?? '' },
  { header: '文件名', width: 30, value: (r) => r.fileName ?? '' },
  { header: '版本', width: 8, value: (r) => r.version ?? '' },
  { header: '物料编码', width: 14, value: (r) => r.materialCode ?? '' },
  { header: '依据授权编号', width: 12, value: (r) => r.grantId },
  { header: 'IP', width: 16, field: 'events.ip', value: (r) => r.ip ?? '' },
];

async function* eventRows(
  batches: AsyncIterable<ReportEvent[]>,
  columns: readonly Column<ReportEvent>[],
): AsyncGenerator<Cell[][]> {
  for await (const batch of batches) yield batch.map((e) => columns.map((c) => c.value(e)));
}

/** 说明 (what, when, by whom), 授权 (the grants), 访问记录 (every event under them). */
export function reportSheets(
  r: AccessReport,
  generatedBy: string,
  events: AsyncIterable<ReportEvent[]>,
  modes: ColumnModes,
): Sheet[] {
  const eventColumns = governExportColumns(EVENT_COLUMNS, modes);
  const subject = r.standardCode
    ? `图纸 ${r.standardCode}（物料 ${r.materials.map((m) => `${m.code} ${m.name}`).join('、')}）`
    : `物料 ${r.materials.map((m) => `${m.code} ${m.name}`).join('、')}`;
  const about: [string, string][] = [
    ['报告对象', subject],
    ['日期', `${r.date}（UTC+8）`],
    ['当日可查看的供应商', `${new Set(r.grants.map((g) => g.supplierCode)).size} 家，${r.grants.length} 项授权`],
    ['授权期内访问记录', `${r.eventsTotal} 条（查看、下载、打印，仅成功的）`],
    ['生成时间', cstDateTime(new Date())],
    ['生成人', generatedBy],
  ];
  return [
    {
      name: '报告说明',
      columns: [
        { header: '项目', width: 20 },
        { header: '内容', width: 80 },
      ],
      rows: [about],
    },
    sheetOf('授权', GRANT_COLUMNS, r.grants),
    {
      name: '访问记录',
      columns: eventColumns.map(({ header, width }) => ({ header, width })),
      rows: eventRows(events, eventColumns),
    },
  ];
}
