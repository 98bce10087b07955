/**
 * The supplier side of the drawing archives (types 2/4). Every call runs inside the caller's
 * own supplier's scope — the materials it supplies AND holds a valid grant for now — given by
 * the auth hook; nothing in the body can widen it.
 */
import type { FastifyInstance } from 'fastify';
import { archivesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { pageMaterials, pageSupplierFiles, productLines } from './service.ts';

export async function supplierArchiveRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, archivesApi.supplierProductLines, async ({ supplier }) =>
    ok(await productLines(db, supplier.code), '查询成功'),
  );
  route(app, archivesApi.supplierMaterials, async ({ body, supplier }) =>
    cappedPage(await pageMaterials(db, body, supplier.code)),
  );
  route(app, archivesApi.supplierFiles, async ({ body, supplier }) =>
    cappedPage(await pageSupplierFiles(db, supplier, body, 'EFFECTIVE', body)),
  );
  route(app, archivesApi.supplierHistory, async ({ body, supplier }) =>
    cappedPage(await pageSupplierFiles(db, supplier, body, 'HISTORY', body)),
  );
}
