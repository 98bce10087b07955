/**
 * Supplier side of the confidentiality agreement and drawing confirmations (spec §7
 * supplier/standardlog/*, supplier/supplierDrawingFileInfomation/supplierConfirm). Who acts is
 * the session's user; nothing in a body can name another user or supplier.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SUPPLIER_TYPES,
  ZHasConfirmRequestSchema,
  ZHasConfirmResponseSchema,
  ZHasKeepsecretResponseSchema,
  ZInsertKeepsecretRequestSchema,
  ZSupplierConfirmRequestSchema,
  ZSupplierConfirmResponseSchema,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { userOf } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import { clientOf } from '../../lib/accessLog.ts';
import { acceptAgreement, confirmFile, confirmFiles, confirmState, keepsecretState } from './service.ts';

export const standardlogRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const config = { access: SUPPLIER_TYPES };
  const tags = ['supplier-standardlog'];

  app.post('/supplier/standardlog/hasKeepsecret', {
    config,
    schema: { tags, summary: '当前保密协议及本人是否已签署', response: { 200: ZHasKeepsecretResponseSchema } },
    handler: async (request) => ok(await keepsecretState(db, userOf(request)), '查询成功'),
  });

  app.post('/supplier/standardlog/insertKeepsecret', {
    config,
    schema: { tags, summary: '签署当前版本的保密协议', body: ZInsertKeepsecretRequestSchema, response: { 200: ZHasKeepsecretResponseSchema } },
    handler: async (request) => {
      const { state, already } = await acceptAgreement(db, userOf(request), request.body.agreementId, clientOf(request));
      return ok(state, already ? '已签署' : '签署成功');
    },
  });

  app.post('/supplier/standardlog/hasConfirmLog', {
    config,
    schema: { tags, summary: '本人是否已确认该图纸', body: ZHasConfirmRequestSchema, response: { 200: ZHasConfirmResponseSchema } },
    handler: async (request) => ok(await confirmState(db, userOf(request), request.body.id), '查询成功'),
  });

  app.post('/supplier/standardlog/insertConfirmLog', {
    config,
    schema: { tags, summary: '确认一份图纸', body: ZHasConfirmRequestSchema, response: { 200: ZHasConfirmResponseSchema } },
    handler: async (request) => {
      const { state, already } = await confirmFile(db, userOf(request), request.body.id, clientOf(request));
      return ok(state, already ? '已确认' : '确认成功');
    },
  });

  app.post('/supplier/supplierDrawingFileInfomation/supplierConfirm', {
    config,
    schema: { tags, summary: '批量确认图纸（全部可确认才写入）', body: ZSupplierConfirmRequestSchema, response: { 200: ZSupplierConfirmResponseSchema } },
    handler: async (request) => {
      const result = await confirmFiles(db, userOf(request), request.body.ids, clientOf(request));
      return ok(result, result.confirmed > 0 ? `已确认 ${result.confirmed} 份图纸` : '所选图纸均已确认');
    },
  });
};
