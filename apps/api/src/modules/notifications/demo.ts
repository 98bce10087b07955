/**
 * The demo's notifications: what the seeded moves would have told their users — each published
 * notice to its recipient suppliers' users (read where the supplier read it), each submitted
 * application to the approvers and each decided one to its supplier's users (read, but for the
 * latest). Written after those seeds, in the words the moves use (modules/notifications/events.ts).
 * No mail: the demo has no outbox rows.
 */
import { PAGES } from '@esm/contracts';
import type { Db } from '../../db/database.ts';

export async function seedDemoNotifications(db: Db): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO notification (user_id, kind, subject, body, link_path, due_date, created_at, read_at)
      SELECT u.id, 'NOTICE_PUBLISHED', '图纸变更通知 ' || n.number || '：' || n.title,
             '贵公司收到一份图纸变更通知，请在 ' || to_char(n.due_date, 'YYYY-MM-DD') || ' 前阅读并确认。',
             ${PAGES.noticeOfChangeOfDrawings.path} || '?id=' || n.id, n.due_date, n.published_at,
             CASE WHEN r.status = 'UNREAD' THEN NULL ELSE coalesce(r.read_at, n.published_at) END
      FROM change_notice n JOIN notice_recipient r ON r.notice_id = n.id
      JOIN app_user u ON u.supplier_code = r.supplier_code AND u.type IN (2, 4) AND u.enabled
      WHERE n.published_at IS NOT NULL
      ORDER BY n.published_at, u.id`;
    await tx.$executeRaw`INSERT INTO notification (user_id, kind, subject, body, link_path, created_at, read_at)
      SELECT u.id, 'APPLICATION_SUBMITTED', '图纸授权申请待审批：' || s.name || '（申请 ' || a.id || '）',
             s.name || ' 提交了图纸授权申请，请审批。', ${PAGES.drawingEmpowerApprove.path}, a.submitted_at,
             CASE WHEN a.status = 'SUBMITTED' THEN NULL ELSE a.decided_at END
      FROM empower_application a JOIN supplier s ON s.code = a.supplier_code
      JOIN app_user u ON u.type = 6 AND u.supplier_code IS NULL AND u.enabled
      WHERE a.submitted_at IS NOT NULL
      ORDER BY a.submitted_at, u.id`;
    await tx.$executeRaw`INSERT INTO notification (user_id, kind, subject, body, link_path, created_at, read_at)
      SELECT u.id, 'APPLICATION_DECIDED', '图纸授权申请 ' || a.id || CASE WHEN a.status = 'APPROVED' THEN ' 已批准' ELSE ' 已驳回' END,
             CASE WHEN a.decision_comment IS NOT NULL THEN '审批意见：' || a.decision_comment END,
             ${PAGES.supplierDrawingEmpowerApply.path}, a.decided_at, a.decided_at
      FROM empower_application a JOIN app_user u ON u.supplier_code = a.supplier_code AND u.type IN (2, 4) AND u.enabled
      WHERE a.decided_at IS NOT NULL AND a.status IN ('APPROVED', 'REJECTED')
      ORDER BY a.decided_at, u.id`;
    // the latest decision is still unread
    await tx.$executeRaw`UPDATE notification SET read_at = NULL WHERE id IN (
      SELECT DISTINCT ON (user_id) id FROM notification WHERE kind = 'APPLICATION_DECIDED' ORDER BY user_id, created_at DESC, id DESC)`;
  });
}
