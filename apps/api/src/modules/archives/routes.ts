/**
 * The internal side of the drawing archives (drawing admins, types 3/7/8/9): the tree, the
 * archive and history pagers, suppliers and who can see a file, upload, obsolete.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import {
  DRAWING_ADMIN_TYPES,
  ZFileSupplierRequestSchema,
  ZFileSupplierResponseSchema,
  ZMaterialPagerRequestSchema,
  ZMaterialPagerResponseSchema,
  ZObsoleteRequestSchema,
  ZObsoleteResponseSchema,
  ZProductLineResponseSchema,
  ZStandardFileHistoryRequestSchema,
  ZStandardFilePagerRequestSchema,
  ZStandardFilePagerResponseSchema,
  ZSupplierInformationRequestSchema,
  ZSupplierInformationResponseSchema,
  ZUploadResponseSchema,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { userOf } from '../../plugins/auth.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/listWindow.ts';
import { findFileRow, pageFiles } from './file-query.ts';
import { fileSuppliers, obsoleteFile, pageMaterials, pageSuppliers, productLines } from './service.ts';
import { uploadStandardFile } from './upload.ts';

const access = DRAWING_ADMIN_TYPES;
const tags = ['archives'];

export const archiveRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage; uploadMaxBytes: number }> = async (app, { db, storage, uploadMaxBytes }) => {
  // +1: the storage's own meter trips first and refuses with the Chinese 413 (see upload.ts)
  await app.register(fastifyMultipart, { limits: { fileSize: uploadMaxBytes + 1, files: 1, fields: 20, parts: 30, fieldSize: 4096 } });

  app.post('/haier/standardFile/selectProductType', {
    config: { access },
    schema: { tags, summary: '产品线（档案树第一层）及其物料数', response: { 200: ZProductLineResponseSchema } },
    handler: async () => ok(await productLines(db), '查询成功'),
  });

  app.post('/haier/standardFile/getMaterialPager', {
    config: { access },
    schema: { tags, summary: '物料分页（档案树第二层）', body: ZMaterialPagerRequestSchema, response: { 200: ZMaterialPagerResponseSchema } },
    handler: async (request) => cappedPage(await pageMaterials(db, request.body)),
  });

  app.post('/haier/standardFile/getStandardFilePager', {
    config: { access },
    schema: { tags, summary: '图纸档案分页（所有版本，可按状态筛选）', body: ZStandardFilePagerRequestSchema, response: { 200: ZStandardFilePagerResponseSchema } },
    handler: async (request) => {
      const { status, ...q } = request.body;
      return cappedPage(await pageFiles(db, { ...q, statuses: status ? [status] : undefined }, q));
    },
  });

  app.post('/haier/standardFileHistory/getStandardFilePager', {
    config: { access },
    schema: { tags, summary: '档案历史：历史版本与已作废版本', body: ZStandardFileHistoryRequestSchema, response: { 200: ZStandardFilePagerResponseSchema } },
    handler: async (request) => cappedPage(await pageFiles(db, { ...request.body, statuses: ['HISTORY', 'OBSOLETE'] }, request.body)),
  });

  app.post('/haier/standardFile/getSupplierInformation', {
    config: { access },
    schema: { tags, summary: '供应商分页（含供货物料数）', body: ZSupplierInformationRequestSchema, response: { 200: ZSupplierInformationResponseSchema } },
    handler: async (request) => cappedPage(await pageSuppliers(db, request.body)),
  });

  app.post('/haier/standardFile/getStandardFileSupplier', {
    config: { access },
    schema: { tags, summary: '文件所属物料的供应商及其授权状态', body: ZFileSupplierRequestSchema, response: { 200: ZFileSupplierResponseSchema } },
    handler: async (request) => ok(await fileSuppliers(db, request.body.id), '查询成功'),
  });

  app.post('/haier/standardFile/upload', {
    config: { access },
    schema: {
      tags,
      summary: '上传新文件或新版本',
      description: 'multipart/form-data：ZUploadFieldsSchema 的各字段，最后是文件部分 file（PDF、PNG、JPG、DWG、DXF，按扩展名和文件头识别）。',
      consumes: ['multipart/form-data'],
      response: { 200: ZUploadResponseSchema },
    },
    handler: async (request) => ok(await uploadStandardFile(request, userOf(request), { db, storage, maxBytes: uploadMaxBytes }), '上传成功'),
  });

  app.post('/haier/standardFile/obsolete', {
    config: { access },
    schema: { tags, summary: '作废一个版本', body: ZObsoleteRequestSchema, response: { 200: ZObsoleteResponseSchema } },
    handler: async (request) => {
      const id = await obsoleteFile(db, request.body.id, request.body.reason);
      return ok((await findFileRow(db, id))!, '已作废');
    },
  });
};
