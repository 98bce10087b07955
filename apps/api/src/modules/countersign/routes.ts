/**
 * Countersign lists, the manufacturer's side (drawing admins, types 3/7/8/9): one line a call
 * (contracts countersignApi); the moves in transitions.ts (their rules in rules.ts), reads in
 * reads.ts, the form's pickers in pickers.ts, the signed sheet in sheet.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { applyColumnSet, COUNTERSIGN_COLUMNS, countersignApi } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { pageCountersigns } from './query.ts';
import { countersignDetail } from './reads.ts';
import { countersignerOptions, fileOptions } from './pickers.ts';
import type { Side } from './rules.ts';
import { cancelCountersign, createDraft, issueCountersign, submitSignature, updateDraft } from './transitions.ts';
import type { SheetFile } from './sheet.ts';
import { downloadSheet } from './sheet.ts';
import { sendDelivery } from '../../lib/access-log-delivery.ts';

/** The stamped sheet, never cached. */
export function sendSheet(db: Db, reply: FastifyReply, sheet: SheetFile) {
  reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', sheet.contentDisposition)
    .header('Cache-Control', 'no-store');
  return sendDelivery(db, reply, sheet.logId, { bytes: sheet.bytes });
}

export async function countersignRoutes(app: FastifyInstance, { db }: { db: Db }) {
  // the actions offered on a list are trimmed by the button table, as the routes are
  const internal: Side = { kind: 'internal', buttons: app.permissions };
  route(app, countersignApi.page, async ({ body }) => cappedPage(await pageCountersigns(db, body)));
  route(app, countersignApi.detail, async ({ body, user }) =>
    ok(await countersignDetail(db, user, body.id, internal), '查询成功'),
  );
  route(app, countersignApi.signers, async ({ body }) => ok(await countersignerOptions(db, body.keyword), '查询成功'));
  route(app, countersignApi.files, async ({ body }) => ok(await fileOptions(db, body), '查询成功'));
  route(app, countersignApi.create, async ({ body, user, request }) =>
    ok(await countersignDetail(db, user, await createDraft(db, user, body, clientOf(request)), internal), '草稿已保存'),
  );
  route(app, countersignApi.update, async ({ body: { id, ...draft }, user, request }) => {
    await updateDraft(db, user, id, draft, clientOf(request));
    return ok(await countersignDetail(db, user, id, internal), '已保存');
  });
  route(app, countersignApi.issue, async ({ body, user, request }) => {
    await issueCountersign(db, user, body.id, clientOf(request));
    return ok(await countersignDetail(db, user, body.id, internal), '已下发，等待供应商会签');
  });
  route(app, countersignApi.sign, async ({ body, user, request }) => {
    const result = await submitSignature(db, user, body, internal, clientOf(request));
    return ok(
      result,
      body.decision === 'RETURN' ? '已退回' : result.status === 'COMPLETED' ? '会签完成，已生成签核单' : '会签成功',
    );
  });
  route(app, countersignApi.cancel, async ({ body, user, request }) => {
    await cancelCountersign(db, user, body.id, body.reason, clientOf(request));
    return ok(await countersignDetail(db, user, body.id, internal), '已取消');
  });
  route(app, countersignApi.sheet, async ({ body, user, request, reply }) => {
    // an export of the detail: its governed columns as the detail call answers them (a hidden IP is not printed)
    const modes = await app.permissions.columnModes(COUNTERSIGN_COLUMNS, user.type);
    return sendSheet(
      db,
      reply,
      await downloadSheet(db, user, body.id, internal, clientOf(request), new Date(), (d) =>
        applyColumnSet(d, COUNTERSIGN_COLUMNS, modes),
      ),
    );
  });
}
