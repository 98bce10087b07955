/**
 * Questions on drawings, the answerers' side (type 5), and the multipart parser both sides'
 * uploads need: one line a call (contracts documentIssuesApi), rules in service.ts.
 */
import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { ATTACHMENT_MAX_BYTES, documentIssuesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { downloadAttachment, issueAttachments, sendAttachment, uploadAttachment } from './attachments.ts';
import { issueDetail, pageIssues } from './query.ts';
import { assignIssue, handlers, replyIssue } from './service.ts';
import { supplierDocumentIssueRoutes } from './supplier-routes.ts';

export async function documentIssueRoutes(app: FastifyInstance, { db, storage }: { db: Db; storage: Storage }) {
  // +1: the storage's own meter trips first and refuses with the Chinese 413
  await app.register(fastifyMultipart, {
    limits: { fileSize: ATTACHMENT_MAX_BYTES + 1, files: 1, fields: 5, parts: 6, fieldSize: 1024 },
  });
  await app.register(supplierDocumentIssueRoutes, { db, storage });

  route(app, documentIssuesApi.page, async ({ body, user }) =>
    cappedPage(await pageIssues(db, { handlerId: user.id }, body)),
  );
  route(app, documentIssuesApi.find, async ({ body, user }) =>
    ok(await issueDetail(db, { handlerId: user.id }, body.id), '查询成功'),
  );
  route(app, documentIssuesApi.assign, async ({ body, user }) => {
    const name = await assignIssue(db, user, body.id, body.userId, body.reason);
    return ok(
      await issueDetail(db, { handlerId: user.id }, body.id),
      name === user.name ? '已领取' : `已分派给 ${name}`,
    );
  });
  route(app, documentIssuesApi.reply, async ({ body, user }) => {
    await replyIssue(db, user, body.id, body.text, body.attachmentIds, body.noticeId);
    return ok(await issueDetail(db, { handlerId: user.id }, body.id), '已回复');
  });
  route(app, documentIssuesApi.files, async ({ body, user }) => {
    await issueDetail(db, { handlerId: user.id }, body.id);
    return ok(await issueAttachments(db, body.id), '查询成功');
  });
  route(app, documentIssuesApi.upload, async ({ request, user }) =>
    ok(await uploadAttachment(request, user, { db, storage }), '附件已上传'),
  );
  route(app, documentIssuesApi.download, async ({ body, user, reply, request }) =>
    sendAttachment(db, reply, await downloadAttachment({ db, storage }, user, body.id, clientOf(request))),
  );
  route(app, documentIssuesApi.handlers, async () => ok(await handlers(db), '查询成功'));
}
