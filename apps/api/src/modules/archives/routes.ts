/**
 * The internal side of the drawing archives (drawing admins, types 3/7/8/9): the tree, the
 * archive and history pagers, suppliers and who can see a file, upload, obsolete.
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { archivesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { fileFilterOf, findFileRow, pageFiles } from './file-query.ts';
import { fileSuppliers, obsoleteFile, pageMaterials, pageSuppliers, productLines } from './service.ts';
import { uploadStandardFile } from './upload.ts';

export async function archiveRoutes(
  app: FastifyInstance,
  { db, storage, uploadMaxBytes }: { db: Db; storage: Storage; uploadMaxBytes: number },
) {
  // +1: the storage's own meter trips first and refuses with the Chinese 413 (see upload.ts)
  await app.register(fastifyMultipart, {
    limits: { fileSize: uploadMaxBytes + 1, files: 1, fields: 20, parts: 30, fieldSize: 4096 },
  });

  route(app, archivesApi.productLines, async () => ok(await productLines(db), '查询成功'));
  route(app, archivesApi.materials, async ({ body }) => cappedPage(await pageMaterials(db, body)));
  route(app, archivesApi.files, async ({ body }) => cappedPage(await pageFiles(db, fileFilterOf(body), body)));
  route(app, archivesApi.history, async ({ body }) =>
    cappedPage(await pageFiles(db, { ...body, statuses: ['HISTORY', 'OBSOLETE'] }, body)),
  );
  route(app, archivesApi.suppliers, async ({ body }) => cappedPage(await pageSuppliers(db, body)));
  route(app, archivesApi.fileSuppliers, async ({ body }) => ok(await fileSuppliers(db, body.id), '查询成功'));
  route(app, archivesApi.upload, async ({ request, user }) =>
    ok(await uploadStandardFile(request, user, { db, storage, maxBytes: uploadMaxBytes }), '上传成功'),
  );
  route(app, archivesApi.obsolete, async ({ body, user }) => {
    const done = await obsoleteFile(db, body.id, body.reason, body.scope, { id: user.id, name: user.name });
    const message =
      body.scope === 'STANDARD'
        ? `已作废该标准的 ${done.count} 个版本`
        : done.restored
          ? `已作废，${done.restored.version} 版已恢复为生效`
          : '已作废';
    return ok((await findFileRow(db, done.id))!, message);
  });
}
