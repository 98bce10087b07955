/**
 * Questions on drawings, the supplier's side (types 2/4): each call acts for the caller's own
 * supplier (the auth hook's `supplier`); another supplier's question answers as a missing one.
 */
import type { FastifyInstance } from 'fastify';
import { documentIssuesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { downloadAttachment, issueAttachments, sendAttachment, uploadAttachment } from './attachments.ts';
import { issueDetail, pageIssues } from './query.ts';
import {
  askableDrawings,
  closeIssue,
  createIssue,
  deleteIssues,
  purchasersOf,
  reopenIssue,
  submitIssue,
  updateIssue,
} from './service.ts';

export async function supplierDocumentIssueRoutes(app: FastifyInstance, { db, storage }: { db: Db; storage: Storage }) {
  const mine = (code: string) => ({ supplierCode: code });
  route(app, documentIssuesApi.supplierPage, async ({ body, supplier }) =>
    cappedPage(await pageIssues(db, mine(supplier.code), body)),
  );
  route(app, documentIssuesApi.supplierFind, async ({ body, supplier }) =>
    ok(await issueDetail(db, mine(supplier.code), body.id), '查询成功'),
  );
  route(app, documentIssuesApi.add, async ({ body, user, supplier }) =>
    ok(await issueDetail(db, mine(supplier.code), await createIssue(db, user, supplier, body)), '草稿已保存'),
  );
  route(app, documentIssuesApi.update, async ({ body: { id, ...draft }, user, supplier }) => {
    await updateIssue(db, user, supplier, id, draft);
    return ok(await issueDetail(db, mine(supplier.code), id), '草稿已保存');
  });
  route(app, documentIssuesApi.remove, async ({ body, supplier }) => {
    await deleteIssues(db, supplier, [body.id]);
    return ok(null, '已删除');
  });
  route(app, documentIssuesApi.removeMany, async ({ body, supplier }) => {
    const deleted = await deleteIssues(db, supplier, body.ids);
    return ok({ deleted }, `已删除 ${deleted} 个草稿`);
  });
  route(app, documentIssuesApi.submit, async ({ body, user, supplier }) => {
    const { routedTo, candidates } = await submitIssue(db, user, supplier, body.id);
    const message = routedTo
      ? `已提交，已分派给 ${routedTo}`
      : candidates > 1
        ? '已提交，有多位处理人，等待分派'
        : '已提交，等待分派';
    return ok(await issueDetail(db, mine(supplier.code), body.id), message);
  });
  route(app, documentIssuesApi.close, async ({ body, user, supplier }) => {
    await closeIssue(db, user, supplier, body.id);
    return ok(await issueDetail(db, mine(supplier.code), body.id), '问题已关闭');
  });
  route(app, documentIssuesApi.reopen, async ({ body, user, supplier }) => {
    await reopenIssue(db, user, supplier, body.id, body.text, body.attachmentIds);
    return ok(await issueDetail(db, mine(supplier.code), body.id), '已追问，问题重新打开');
  });
  route(app, documentIssuesApi.supplierFiles, async ({ body, supplier }) => {
    await issueDetail(db, mine(supplier.code), body.id);
    return ok(await issueAttachments(db, body.id), '查询成功');
  });
  route(app, documentIssuesApi.supplierUpload, async ({ request, user }) =>
    ok(await uploadAttachment(request, user, { db, storage }), '附件已上传'),
  );
  route(app, documentIssuesApi.supplierDownload, async ({ body, user, reply, request }) =>
    sendAttachment(db, reply, await downloadAttachment({ db, storage }, user, body.id, clientOf(request))),
  );
  route(app, documentIssuesApi.purchasers, async ({ body, supplier }) =>
    ok(await purchasersOf(db, supplier, body.materialCode), '查询成功'),
  );
  route(app, documentIssuesApi.drawings, async ({ body, supplier }) =>
    ok(await askableDrawings(db, supplier, body.keyword), '查询成功'),
  );
}
