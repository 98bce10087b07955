/**
 * file/view, file/print, file/download (issue 3): the only ways to a stored file's bytes. The
 * answer is the caller's stamped copy, never cached by the browser or a proxy.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES, ZFileActionRequestSchema } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { userOf } from '../../plugins/auth.ts';
import { clientOf } from '../../lib/accessLog.ts';
import { serveFile, type FileAction, type ServedFile } from './service.ts';

const ACCESS = [...SUPPLIER_TYPES, ...DRAWING_ADMIN_TYPES];

const ROUTES: { path: string; action: FileAction; summary: string }[] = [
  { path: '/file/view', action: 'VIEW', summary: '查看文件（带本人水印，inline；DWG/DXF 不支持）' },
  { path: '/file/print', action: 'PRINT', summary: '打印文件（带本人水印，inline；DWG/DXF 不支持）' },
  { path: '/file/download', action: 'DOWNLOAD', summary: '下载文件（带本人水印；DWG/DXF 原样，文件名带水印信息）' },
];

function send(reply: FastifyReply, served: ServedFile) {
  return reply
    .header('Content-Type', served.contentType)
    .header('Content-Disposition', served.contentDisposition)
    .header('Content-Length', served.bytes.byteLength)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .send(Buffer.from(served.bytes.buffer, served.bytes.byteOffset, served.bytes.byteLength));
}

export const fileRoutes: FastifyPluginAsyncZod<{ db: Db; storage: Storage }> = async (app, { db, storage }) => {
  for (const r of ROUTES) {
    app.post(r.path, {
      config: { access: ACCESS },
      schema: { tags: ['files'], summary: r.summary, body: ZFileActionRequestSchema },
      handler: async (request, reply) => {
        const served = await serveFile({ db, storage }, userOf(request), request.body.id, r.action, clientOf(request));
        return send(reply, served);
      },
    });
  }
};
