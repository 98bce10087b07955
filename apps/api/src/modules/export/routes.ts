/**
 * searchDrawingFileInformations/drawingExportExcel (drawing admins): the archive list with its
 * current filters and sort as a streamed .xlsx. The rows are counted first (up to the cap) so a
 * too-wide export is refused with a message instead of a half-written file, and the count goes
 * out as X-Total-Rows for the web's progress.
 */
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { exportApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cstStamp } from '../../lib/dates.ts';
import { route } from '../../lib/route.ts';
import { badRequest } from '../../plugins/errors.ts';
import { countFiles } from '../archives/file-query.ts';
import { writeArchiveWorkbook } from './service.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export async function exportRoutes(app: FastifyInstance, { db, exportMaxRows }: { db: Db; exportMaxRows: number }) {
  route(app, exportApi.drawingExcel, async ({ body, user, request, reply }) => {
    const { status, sortField, sortOrder, page: _page, results: _results, ...filters } = body;
    const filter = { ...filters, statuses: status ? [status] : undefined };
    const { total, totalCapped } = await countFiles(db, filter, exportMaxRows);
    if (totalCapped) throw badRequest(`导出结果超过 ${exportMaxRows} 条，请缩小查询范围后再导出`);

    const out = new PassThrough();
    const name = `图纸档案信息_${cstStamp(new Date())}.xlsx`;
    const modes = await app.permissions.columnModes(exportApi.drawingExcel.columns, user.type);
    writeArchiveWorkbook(db, filter, { sortField, sortOrder }, out, undefined, modes).catch((err: unknown) => {
      // the headers are gone: all that is left is to cut the download short
      request.log.error({ err }, 'export failed');
      out.destroy(err as Error);
    });
    return reply
      .header('content-type', XLSX)
      .header('content-disposition', `attachment; filename="drawing-files.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .header('x-total-rows', String(total))
      .send(out);
  });
}
