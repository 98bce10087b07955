/** searchDrawingFileInformations/drawingExportExcel: the archive list with its filters and sort, as .xlsx. */
import { DRAWING_ADMIN_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
import { ARCHIVE_FILE_COLUMNS, ZStandardFilePagerRequestSchema } from './archives.ts';
import { PAGES } from './pages.ts';

/** The Excel export refuses more rows than this: narrow the filters instead. */
export const EXPORT_MAX_ROWS = 200_000;

export const exportApi = {
  drawingExcel: endpoint({
    path: 'searchDrawingFileInformations/drawingExportExcel',
    access: DRAWING_ADMIN_TYPES,
    tag: 'export',
    kind: 'bytes',
    button: PAGES.dashboard.buttons.export,
    columns: ARCHIVE_FILE_COLUMNS,
    summary: '导出图纸档案信息（.xlsx，与档案列表相同的筛选和排序）',
    description: `超过上限（默认 ${EXPORT_MAX_ROWS} 条）时拒绝导出；响应头 X-Total-Rows 为行数。`,
    body: ZStandardFilePagerRequestSchema,
  }),
} as const;
