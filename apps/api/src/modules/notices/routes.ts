/**
 * Change notices, the manufacturer's side (drawing admins, types 3/7/8/9), and the shared change
 * list: one line a call (contracts noticesApi), rules in service.ts, reads in query.ts.
 */
import type { FastifyInstance } from 'fastify';
import { noticesApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { badRequest, notFound } from '../../plugins/errors.ts';
import { clientOf } from '../../lib/access-log.ts';
import { sendXlsx } from '../../lib/workbook.ts';
import { writeRecipientWorkbook } from './export.ts';
import { noticeExists, pageChangeRecords, pageNotices, pageRecipients, pageSupplierNotices } from './query.ts';
import {
  NOTICE_NOT_FOUND,
  changeCandidates,
  closeNotice,
  createDraft,
  noticeDetail,
  previewRecipients,
  publishNotice,
  remindOverdue,
  updateDraft,
  withdrawNotice,
} from './service.ts';

export async function noticeRoutes(app: FastifyInstance, { db }: { db: Db }) {
  route(app, noticesApi.page, async ({ body }) => cappedPage(await pageNotices(db, body)));
  route(app, noticesApi.detail, async ({ body }) => ok(await noticeDetail(db, body.id), '查询成功'));
  route(app, noticesApi.recipients, async ({ body: { id, ...q } }) => {
    const page = await pageRecipients(db, id, q);
    // an unknown notice is a 404, not an empty page (asked only when the page is empty: a notice with recipients exists)
    if (page.total === 0 && !(await noticeExists(db, id))) throw notFound(NOTICE_NOT_FOUND);
    return cappedPage(page);
  });
  route(app, noticesApi.previewRecipients, async ({ body }) => ok(await previewRecipients(db, body.id), '查询成功'));
  route(app, noticesApi.candidates, async ({ body }) => ok(await changeCandidates(db, body), '查询成功'));
  route(app, noticesApi.create, async ({ body, user, request }) =>
    ok(await noticeDetail(db, await createDraft(db, user, body, clientOf(request))), '草稿已保存'),
  );
  route(app, noticesApi.update, async ({ body: { id, ...draft }, user, request }) => {
    await updateDraft(db, user, id, draft, clientOf(request));
    return ok(await noticeDetail(db, id), '草稿已保存');
  });
  route(app, noticesApi.publish, async ({ body, user, request }) => {
    const { recipients } = await publishNotice(db, user, body.id, clientOf(request));
    return ok(await noticeDetail(db, body.id), `已发布，通知 ${recipients} 家供应商`);
  });
  route(app, noticesApi.withdraw, async ({ body, user, request }) => {
    await withdrawNotice(db, user, body.id, body.reason, clientOf(request));
    return ok(await noticeDetail(db, body.id), '已撤回');
  });
  route(app, noticesApi.close, async ({ body, user, request }) => {
    await closeNotice(db, user, body.id, clientOf(request));
    return ok(await noticeDetail(db, body.id), '已关闭');
  });
  route(app, noticesApi.remind, async ({ body, user, request }) => {
    const result = await remindOverdue(db, user, body.id, body.supplierCodes, clientOf(request));
    return ok(
      result,
      result.reminded ? `已催办 ${result.reminded} 家供应商` : '没有需要催办的供应商（1 小时内已催办的不再重复催办）',
    );
  });
  route(app, noticesApi.exportRecipients, async ({ body: { id, ...q }, user, request, reply }) => {
    const notice = await noticeDetail(db, id);
    const modes = await app.permissions.columnModes(noticesApi.exportRecipients.columns, user.type);
    return sendXlsx(request, reply, `变更通知接收情况_${notice.number}`, notice.recipientCount, (out) =>
      writeRecipientWorkbook(db, notice, q, out, undefined, modes),
    );
  });
  route(app, noticesApi.changes, async ({ body }) => cappedPage(await pageChangeRecords(db, body)));
  route(app, noticesApi.supplierDetail, async ({ body: { supplierCode, ...q } }) =>
    cappedPage(await pageSupplierNotices(db, supplierCode, q)),
  );
  route(app, noticesApi.sharedChangeList, async ({ body: { supplierCode, ...q }, user }) => {
    // a supplier sees its own, whatever it names; staff name the supplier
    const code = user.isSupplier ? user.supplierCode : supplierCode;
    if (!code)
      throw badRequest(user.isSupplier ? '账号未关联供应商，请联系管理员' : '请选择供应商', [
        { field: 'supplierCode', message: '请选择供应商' },
      ]);
    return cappedPage(await pageChangeRecords(db, q, code));
  });
}
