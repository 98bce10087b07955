/**
 * searchDrawingFileInformations/drawingExportExcel (drawing admins): the archive list with its
 * current filters and sort as a streamed .xlsx. The rows are counted first (up to the cap) so a
 * too-wide export is refused with a message instead of a half-written file, and the count goes
 * out as X-Total-Rows for the web's progress.
 */
import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DRAWING_ADMIN_TYPES, ZExportRequestSchema } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { badRequest } from '../../plugins/errors.ts';
import { countFiles } from '../archives/file-query.ts';
import { cstStamp, writeArchiveWorkbook } from './service.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const exportRoutes: FastifyPluginAsyncZod<{ db: Db; exportMaxRows: number }> = async (app, { db, exportMaxRows }) => {
  app.post('/searchDrawingFileInformations/drawingExportExcel', {
    config: { access: DRAWING_ADMIN_TYPES },
    schema: {
      tags: ['archives'],
      summary: '导出图纸档案信息（.xlsx，与档案列表相同的筛选和排序）',
      description: `超过 ${exportMaxRows} 条时拒绝导出；响应头 X-Total-Rows 为行数。`,
      body: ZExportRequestSchema,
    },
    handler: async (request, reply) => {
      const { status, sortField, sortOrder, page: _page, results: _results, ...filters } = request.body;
      const filter = { ...filters, statuses: status ? [status] : undefined };
      const { total, totalCapped } = await countFiles(db, filter, exportMaxRows);
      if (totalCapped) throw badRequest(`导出结果超过 ${exportMaxRows} 条，请缩小查询范围后再导出`);

      const out = new PassThrough();
      const name = `图纸档案信息_${cstStamp(new Date())}.xlsx`;
      writeArchiveWorkbook(db, filter, { sortField, sortOrder }, out).catch((err: unknown) => {
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
    },
  });
};
