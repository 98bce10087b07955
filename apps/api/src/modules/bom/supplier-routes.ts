/**
 * The supplier side of the BOM (types 2/4): its own tree and vendors, its lines' moves, the
 * template, the import and the exports. Every call runs in the caller's own supplier's scope
 * (from the auth hook): another supplier's line answers exactly like one that does not exist.
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { BOM_IMPORT_MAX_BYTES, bomApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { tooManyToExport } from '../../lib/export-limits.ts';
import { sendWorkbook } from '../../lib/workbook.ts';
import { linesSheet, templateSheets, vendorsSheet } from './excel.ts';
import { importBom } from './import.ts';
import {
  addLine,
  bomFlatAll,
  bomLevelList,
  bomLinesFlat,
  bomMaterials,
  bomVendors,
  bomVendorsAll,
  deleteLine,
  updateLine,
} from './service.ts';

export async function supplierBomRoutes(
  app: FastifyInstance,
  { db, exportMaxRows }: { db: Db; exportMaxRows: number },
) {
  // +1: a file of exactly the limit passes; one byte more is the Chinese 413 of import.ts
  await app.register(fastifyMultipart, {
    limits: { fileSize: BOM_IMPORT_MAX_BYTES + 1, files: 1, fields: 5, parts: 8, fieldSize: 256 },
  });

  route(app, bomApi.tree, async ({ body, supplier }) => cappedPage(await bomLevelList(db, supplier.code, body)));
  route(app, bomApi.vendors, async ({ body, supplier }) => cappedPage(await bomVendors(db, supplier.code, body)));
  route(app, bomApi.materials, async ({ supplier }) => ok(await bomMaterials(db, supplier.code), '查询成功'));

  route(app, bomApi.add, async ({ body, supplier, user }) =>
    ok(await addLine(db, supplier.code, user, body), '已新增'),
  );
  route(app, bomApi.update, async ({ body, supplier, user }) =>
    ok(await updateLine(db, supplier.code, user, body), '已保存'),
  );
  route(app, bomApi.remove, async ({ body, supplier, user }) => {
    const removed = await deleteLine(db, supplier.code, user, body.id);
    return ok({ removed }, removed > 1 ? `已删除 ${removed} 行（含三级子件）` : '已删除');
  });

  route(app, bomApi.import, async ({ request, supplier, user }) => {
    const result = await importBom(db, supplier.code, user, request);
    return ok(result, result.applied ? `已导入 ${result.lines} 行` : `校验通过：共 ${result.lines} 行`);
  });
  route(app, bomApi.template, async ({ request, reply, supplier }) =>
    sendWorkbook(request, reply, '二三级BOM导入模板', 0, templateSheets(await bomMaterials(db, supplier.code))),
  );
  route(app, bomApi.exportLines, async ({ body, request, reply, supplier }) => {
    // the export follows the view on screen: the tree's lines in tree order, or the flat view's in its order
    // at most one row past the cap is read: an export that would exceed it is refused, not cut short
    const lines =
      body.view === 'flat'
        ? await bomFlatAll(db, supplier.code, body, exportMaxRows + 1)
        : await bomLinesFlat(db, supplier.code, body, exportMaxRows);
    if (!lines || lines.length > exportMaxRows) throw tooManyToExport(exportMaxRows);
    return sendWorkbook(request, reply, '二三级BOM', lines.length, [linesSheet(lines)]);
  });
  route(app, bomApi.exportVendors, async ({ body, request, reply, supplier }) => {
    const rows = await bomVendorsAll(db, supplier.code, body, exportMaxRows + 1);
    if (rows.length > exportMaxRows) throw tooManyToExport(exportMaxRows);
    return sendWorkbook(request, reply, '二三级供应商', rows.length, [vendorsSheet(rows)]);
  });
}
