/** The in-app centre: every user's own notifications (the bell, the list, marking read). */
import type { FastifyInstance } from 'fastify';
import { notificationsApi as api } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { ok } from '../../lib/envelope.ts';
import { cappedPage } from '../../lib/list.ts';
import { route } from '../../lib/route.ts';
import { pageDeliveries, resend } from './deliveries.ts';
import { bell, markRead, pageNotifications, saveSettings, settingsOf } from './service.ts';

export async function notificationRoutes(app: FastifyInstance, { db, mailOn }: { db: Db; mailOn: boolean }) {
  route(app, api.bell, async ({ user }) => ok(await bell(db, user.id)));
  route(app, api.page, async ({ body, user }) => cappedPage(await pageNotifications(db, user.id, body)));
  route(app, api.markRead, async ({ body, user }) => {
    const marked = await markRead(db, user.id, body);
    return ok({ marked }, marked ? `已将 ${marked} 条通知标为已读` : '没有未读通知');
  });
  route(app, api.settings, async ({ user }) => ok(await settingsOf(db, user.id, mailOn)));
  route(app, api.saveSettings, async ({ body, user }) => {
    await saveSettings(db, user.id, body);
    return ok(await settingsOf(db, user.id, mailOn), '个人设置已保存');
  });
  route(app, api.deliveries, async ({ body }) => cappedPage(await pageDeliveries(db, body)));
  route(app, api.resend, async ({ body }) => {
    const queued = await resend(db, body.ids);
    return ok({ queued }, `已重新发送 ${queued} 条`);
  });
}
