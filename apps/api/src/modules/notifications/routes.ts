/** The in-app centre: every user's own notifications (the bell, the list, marking read). */
import type { FastifyInstance } from 'fastify';
import { DELIVERY_STATE_LABELS, NOTIFICATION_KIND_LABELS, notificationsApi, type DeliveryRow } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { cstDateTime } from '../../lib/dates.ts';
import { tooManyToExport } from '../../lib/export-limits.ts';
import { sendWorkbook } from '../../lib/workbook.ts';
import { bounce, bounceReported, deliveryRows, pageDeliveries, resend } from './deliveries.ts';
import type { MailConfig } from '../../config.ts';
import { forbidden, notFound } from '../../plugins/errors.ts';
import { sameSecret } from '../../plugins/observability.ts';
import { bell, markRead, pageNotifications, saveSettings, setUserEmail, settingsOf } from './service.ts';

const EXPORT_COLUMNS: { header: string; width: number; value: (r: DeliveryRow) => string | number }[] = [
  { header: '收件人', width: 14, value: (r) => r.recipientName },
  { header: '账号', width: 14, value: (r) => r.recipientAccount },
  { header: '邮箱', width: 28, value: (r) => r.address },
  { header: '类型', width: 16, value: (r) => NOTIFICATION_KIND_LABELS[r.kind] },
  { header: '内容', width: 48, value: (r) => r.subject },
  { header: '状态', width: 10, value: (r) => DELIVERY_STATE_LABELS[r.state] },
  { header: '尝试次数', width: 10, value: (r) => r.tries },
  { header: '服务器应答或退信内容', width: 40, value: (r) => r.lastAnswer ?? '' },
  { header: '日报编号', width: 10, value: (r) => r.digestId ?? (r.viaDigest ? '待汇总' : '') },
  { header: '创建时间', width: 20, value: (r) => cstDateTime(new Date(r.createdAt)) },
  { header: '发送时间', width: 20, value: (r) => (r.sentAt ? cstDateTime(new Date(r.sentAt)) : '') },
];

export async function notificationRoutes(
  app: FastifyInstance,
  { db, mail, exportMaxRows }: { db: Db; mail: MailConfig | undefined; exportMaxRows: number },
) {
  const mailOn = mail !== undefined;
  route(app, notificationsApi.bell, async ({ user }) => ok(await bell(db, user.id)));
  route(app, notificationsApi.page, async ({ body, user }) => cappedPage(await pageNotifications(db, user.id, body)));
  route(app, notificationsApi.markRead, async ({ body, user }) => {
    const marked = await markRead(db, user.id, body);
    return ok({ marked }, marked ? `已将 ${marked} 条通知标为已读` : '没有未读通知');
  });
  route(app, notificationsApi.settings, async ({ user }) => ok(await settingsOf(db, user.id, mailOn)));
  route(app, notificationsApi.saveSettings, async ({ body, user }) => {
    await saveSettings(db, user.id, body);
    return ok(await settingsOf(db, user.id, mailOn), '个人设置已保存');
  });
  route(app, notificationsApi.deliveries, async ({ body }) => cappedPage(await pageDeliveries(db, body)));
  route(app, notificationsApi.exportExcel, async ({ body, request, reply }) => {
    const rows = await deliveryRows(db, body, exportMaxRows);
    if (!rows) throw tooManyToExport(exportMaxRows);
    return sendWorkbook(request, reply, '通知发送记录', rows.length, [
      {
        name: '通知发送记录',
        columns: EXPORT_COLUMNS.map(({ header, width }) => ({ header, width })),
        rows: [rows.map((r) => EXPORT_COLUMNS.map((c) => c.value(r)))],
      },
    ]);
  });
  route(app, notificationsApi.resend, async ({ body }) => {
    const queued = await resend(db, body.ids);
    return ok({ queued }, `已重新发送 ${queued} 条`);
  });
  route(app, notificationsApi.bounce, async ({ body, user }) =>
    ok(await bounce(db, body.id, body.reason, { userId: user.id, account: user.account }), '已标记为已退回'),
  );
  route(app, notificationsApi.updateUserEmail, async ({ body }) => {
    const u = await setUserEmail(db, body.account, body.email);
    return ok(u, u.email ? `已将 ${u.name} 的邮箱改为 ${u.email}` : `已清除 ${u.name} 的邮箱`);
  });
  // an MTA's or mail service's call, not a person's: its token is the access check
  route(app, notificationsApi.bounceReport, async ({ body, request }) => {
    const token = mail?.bounceToken;
    if (!token) throw notFound('未开通退信回调（MAIL_BOUNCE_TOKEN 未设置）');
    const auth = request.headers.authorization;
    const bearer = typeof auth === 'string' && /^Bearer /i.test(auth) ? auth.slice(7).trim() : undefined;
    if (bearer === undefined || !sameSecret(bearer, token)) throw forbidden('退信回调的令牌无效');
    const bounced = await bounceReported(db, body.messageId, body.reason);
    return ok({ bounced }, `已将 ${bounced} 条标记为已退回`);
  });
}
