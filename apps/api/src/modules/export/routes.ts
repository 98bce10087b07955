/**
 * searchDrawingFileInformations/drawingExportExcel (drawing admins): the archive list with its
 * current filters and sort as a streamed .xlsx. The rows are counted first (up to the cap) so a
 * too-wide export is refused with a message instead of a half-written file, and the count goes
 * out as X-Total-Rows for the web's progress.
 */
import type { FastifyInstance } from 'fastify';
import { exportApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { route } from '../../lib/route.ts';
import { tooManyToExport } from '../../lib/export-limits.ts';
import { countFiles, fileFilterOf } from '../archives/index.ts';
import { writeArchiveWorkbook } from './service.ts';
import { sendXlsx } from '../../lib/workbook.ts';

export async function exportRoutes(app: FastifyInstance, { db, exportMaxRows }: { db: Db; exportMaxRows: number }) {
  route(app, exportApi.drawingExcel, async ({ body, user, request, reply }) => {
    const { sortField, sortOrder, page: _page, results: _results, ...filters } = body;
    const filter = fileFilterOf(filters);
    const { total, totalCapped } = await countFiles(db, filter, exportMaxRows);
    if (totalCapped) throw tooManyToExport(exportMaxRows);

    const modes = await app.permissions.columnModes(exportApi.drawingExcel.columns, user.type);
    return sendXlsx(request, reply, '图纸档案信息', total, (out) =>
      writeArchiveWorkbook(db, filter, { sortField, sortOrder }, out, undefined, modes),
    );
  });
}
