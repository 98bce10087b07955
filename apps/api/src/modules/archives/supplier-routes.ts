/**
 * The supplier side of the drawing archives (types 2/4). Every call runs inside the caller's
 * own scope — the materials its supplier supplies AND holds a valid grant for now
 * (lib/scope.ts) — taken from the session; nothing in the body can widen it.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SUPPLIER_TYPES,
  ZHasEmpowerRequestSchema,
  ZHasEmpowerResponseSchema,
  ZMaterialPagerRequestSchema,
  ZMaterialPagerResponseSchema,
  ZProductLineResponseSchema,
  ZStandardFilePagerResponseSchema,
  ZSupplierFilePagerRequestSchema,
} from '@esm/contracts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { userOf } from '../../plugins/auth.ts';
import { forbidden } from '../../plugins/errors.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/listWindow.ts';
import { materialAccess } from '../../lib/scope.ts';
import { pageMaterials, pageSupplierFiles, productLines } from './service.ts';

const access = SUPPLIER_TYPES;
const tags = ['archives (supplier)'];

/** The caller's supplier; a supplier account without one sees nothing at all. */
function supplierOf(request: FastifyRequest): { code: string; userId: number } {
  const user = userOf(request);
  if (!user.supplierCode) throw forbidden('账号未关联供应商，请联系管理员');
  return { code: user.supplierCode, userId: user.id };
}

export const supplierArchiveRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post('/supplier/standardFile/selectProductType', {
    config: { access },
    schema: { tags, summary: '本供应商可见物料的产品线', response: { 200: ZProductLineResponseSchema } },
    handler: async (request) => ok(await productLines(db, supplierOf(request).code), '查询成功'),
  });

  app.post('/supplier/standardFile/getMaterialPager', {
    config: { access },
    schema: { tags, summary: '本供应商可见的物料分页', body: ZMaterialPagerRequestSchema, response: { 200: ZMaterialPagerResponseSchema } },
    handler: async (request) => cappedPage(await pageMaterials(db, request.body, supplierOf(request).code)),
  });

  app.post('/supplier/standardFile/getStandardFilePager', {
    config: { access },
    schema: { tags, summary: '本供应商可见的生效文件（含本人确认时间）', body: ZSupplierFilePagerRequestSchema, response: { 200: ZStandardFilePagerResponseSchema } },
    handler: async (request) => cappedPage(await pageSupplierFiles(db, supplierOf(request), request.body, 'EFFECTIVE', request.body)),
  });

  app.post('/supplier/supplierDrawingFileInfomation/searchByMaterialHistory', {
    config: { access },
    schema: { tags, summary: '本供应商可见物料的历史版本', body: ZSupplierFilePagerRequestSchema, response: { 200: ZStandardFilePagerResponseSchema } },
    handler: async (request) => cappedPage(await pageSupplierFiles(db, supplierOf(request), request.body, 'HISTORY', request.body)),
  });

  app.post('/supplier/standardFile/hasEmpower', {
    config: { access },
    schema: { tags, summary: '本供应商对某物料是否有有效授权', body: ZHasEmpowerRequestSchema, response: { 200: ZHasEmpowerResponseSchema } },
    handler: async (request) => {
      const verdict = await materialAccess(db, supplierOf(request).code, request.body.materialCode);
      return ok(
        verdict.ok
          ? { empowered: true, validFrom: verdict.validFrom.toISOString(), validUntil: verdict.validUntil.toISOString(), reason: null }
          : { empowered: false, validFrom: null, validUntil: null, reason: verdict.reason },
        '查询成功',
      );
    },
  });
};
