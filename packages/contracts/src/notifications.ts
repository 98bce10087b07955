/**
 * Notifications: telling a user when something needs them or concerns them — a change notice
 * published to their supplier, an application decided, a question assigned, a countersign list
 * waiting for their signature. Each is written in the transaction of the move that causes it,
 * one per recipient user chosen by that domain's scope rules; the in-app centre (the header's
 * bell and its page) lists them, and the outbox delivers them by mail where the user has an
 * address.
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES, USER_TYPES, type UserType } from './codes.ts';
import { NOTIFICATION_LOG_PAGE } from './page-paths.ts';
import { PAGES } from './pages.ts';
import { endpoint } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { withDateRange, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import type { Transition } from './workflow.ts';

const tag = 'notifications';

/** What happened, as the centre and the mail name it. */
export const NOTIFICATION_KIND_LABELS = {
  NOTICE_PUBLISHED: '图纸变更通知',
  NOTICE_WITHDRAWN: '变更通知撤回',
  NOTICE_DUE_SOON: '变更通知即将到期',
  NOTICE_OVERDUE: '变更通知已逾期',
  GRANT_EXPIRING: '授权即将到期',
  APPLICATION_SUBMITTED: '授权申请待审批',
  APPLICATION_DECIDED: '授权申请审批结果',
  QUESTION_ASSIGNED: '图纸问题待回复',
  QUESTION_REPLIED: '图纸问题已回复',
  COUNTERSIGN_WAITING: '会签单待会签',
  COUNTERSIGN_RETURNED: '会签单被退回',
  COUNTERSIGN_COMPLETED: '会签单已完成',
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KIND_LABELS;
export const NOTIFICATION_KINDS = Object.keys(NOTIFICATION_KIND_LABELS) as [NotificationKind, ...NotificationKind[]];
const KIND_MESSAGE = `通知类型只能是 ${NOTIFICATION_KINDS.join('、')}`;

/**
 * Who can receive each kind, by the domains' scope rules (modules/notifications/events.ts,
 * reminders.ts): the suppliers' users hear of their notices, grants, applications, questions and
 * countersign turns; the answerers (5) of questions assigned; the approvers (6) of applications
 * submitted; the drawing admins (3/7/8/9) of the countersign lists they issue or sign. 个人设置
 * offers a user only the kinds their type receives.
 */
export const NOTIFICATION_KINDS_BY_TYPE: Record<UserType, readonly NotificationKind[]> = (() => {
  const supplier: NotificationKind[] = [
    'NOTICE_PUBLISHED',
    'NOTICE_WITHDRAWN',
    'NOTICE_DUE_SOON',
    'NOTICE_OVERDUE',
    'GRANT_EXPIRING',
    'APPLICATION_DECIDED',
    'QUESTION_REPLIED',
    'COUNTERSIGN_WAITING',
    'COUNTERSIGN_COMPLETED',
  ];
  const admin: NotificationKind[] = ['COUNTERSIGN_WAITING', 'COUNTERSIGN_RETURNED', 'COUNTERSIGN_COMPLETED'];
  const byType = {} as Record<UserType, readonly NotificationKind[]>;
  for (const t of USER_TYPES)
    byType[t] = (SUPPLIER_TYPES as readonly number[]).includes(t)
      ? supplier
      : (DRAWING_ADMIN_TYPES as readonly number[]).includes(t)
        ? admin
        : t === 5
          ? ['QUESTION_ASSIGNED']
          : ['APPLICATION_SUBMITTED'];
  return byType;
})();

/** The bell's dropdown shows this many of the latest. */
export const NOTIFICATION_BELL_LATEST = 6;

/**
 * An e-mail address as a user types it: optional (blank clears it), trimmed, at most 254
 * characters (RFC 5321's path limit), one `@` with a dotted domain after it.
 */
export const zOptionalEmail = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
  z
    .string()
    .max(254, '邮箱不能超过 254 个字符')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, '邮箱格式不正确，例如 zhangwei@example.com')
    .nullable()
    .optional(),
);

export const ZNotificationRow = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  subject: z.string(),
  body: z.string().nullable(),
  /** The page it concerns, under /esm (with its query, e.g. ?id=12). */
  linkPath: z.string(),
  /** YYYY-MM-DD (UTC+8), when the thing has a deadline. */
  dueDate: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationRow = z.infer<typeof ZNotificationRow>;

/** The centre's read filter. */
export const NOTIFICATION_READ_STATES = ['UNREAD', 'READ'] as const;
export const NOTIFICATION_READ_LABELS = { UNREAD: '未读', READ: '已读' } as const;

export const ZNotificationPageRequestSchema = ZPageRequest(['createdAt'], {
  kind: zOptionalEnum(NOTIFICATION_KINDS, KIND_MESSAGE),
  state: zOptionalEnum(NOTIFICATION_READ_STATES, '状态只能是 UNREAD 或 READ'),
});
export type NotificationPageRequest = z.input<typeof ZNotificationPageRequestSchema>;

/** The bell: how many are unread, and the latest few (read or not). */
export const ZNotificationBell = z.object({ unread: z.number().int(), latest: z.array(ZNotificationRow) });
export type NotificationBell = z.infer<typeof ZNotificationBell>;

export const ZMarkReadSchema = z.object({
  /** The caller's own notifications; absent: all of them (全部已读). */
  ids: z
    .array(z.number().int().min(1).max(2_147_483_647), { error: '通知编号无效' })
    .max(500, '一次最多 500 条')
    .optional(),
});
export type MarkReadRequest = z.input<typeof ZMarkReadSchema>;

/** 个人设置: the user's own address and which kinds they want by mail. */
export const ZNotificationSettings = z.object({
  account: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** Kinds not mailed to this user (the centre lists every kind). */
  mutedKinds: z.array(z.enum(NOTIFICATION_KINDS)),
  /** The kinds this user's type receives (NOTIFICATION_KINDS_BY_TYPE): the choices 个人设置 offers. */
  kinds: z.array(z.enum(NOTIFICATION_KINDS)),
  /** Mail once a day: one digest of the day's notifications instead of a mail each. */
  digest: z.boolean(),
  /** Mail is on for this portal (SMTP_URL set): otherwise the choices wait for it. */
  mailOn: z.boolean(),
});
export type NotificationSettings = z.infer<typeof ZNotificationSettings>;

export const ZSaveNotificationSettingsSchema = z.object({
  email: zOptionalEmail,
  mutedKinds: z
    .array(z.enum(NOTIFICATION_KINDS, { error: KIND_MESSAGE }), { error: '请选择不需要邮件的通知类型' })
    .max(NOTIFICATION_KINDS.length),
  /** Absent: unchanged. */
  digest: z.boolean({ error: '请选择邮件发送方式：即时或每日汇总' }).optional(),
});
export type SaveNotificationSettings = z.input<typeof ZSaveNotificationSettingsSchema>;

// ---- the delivery log (internal admins, 系统管理 → 通知发送记录) ----------------------------------------

export { NOTIFICATION_LOG_PAGE };

/**
 * An outbox row's state: 待发送 (queued, between tries, or waiting for the day's digest), 已发送
 * (the server accepted it), 失败 (every try refused), 已退回 (accepted, then bounced back).
 */
export const DELIVERY_STATE_LABELS = { PENDING: '待发送', SENT: '已发送', FAILED: '失败', BOUNCED: '已退回' } as const;
export type DeliveryState = keyof typeof DELIVERY_STATE_LABELS;
export const DELIVERY_STATES = Object.keys(DELIVERY_STATE_LABELS) as [DeliveryState, ...DeliveryState[]];
/** Not delivered: refused on every try, or bounced after the server accepted it. */
export const UNDELIVERED_STATES: readonly DeliveryState[] = ['FAILED', 'BOUNCED'];
/** The log's state filter: one state, or 未送达 (UNDELIVERED_STATES). */
export const DELIVERY_STATE_FILTER_LABELS = {
  ...DELIVERY_STATE_LABELS,
  UNDELIVERED: '未送达（失败或已退回）',
} as const;
const DELIVERY_STATE_FILTERS = Object.keys(DELIVERY_STATE_FILTER_LABELS) as [
  keyof typeof DELIVERY_STATE_FILTER_LABELS,
  ...(keyof typeof DELIVERY_STATE_FILTER_LABELS)[],
];

/**
 * The moves a person (or the bounce webhook) makes on a delivery; the outbox's own moves (PENDING →
 * SENT / FAILED, 重新发送 FAILED → PENDING) are the sender's. Only a mail the server accepted can
 * come back.
 */
export const DELIVERY_TRANSITIONS = {
  bounce: { from: ['SENT'], to: 'BOUNCED', label: PAGES.notificationLog.buttons.bounce.label },
} as const satisfies Record<string, Transition<DeliveryState>>;

export const ZDeliveryRow = z.object({
  id: z.number().int(),
  state: z.enum(DELIVERY_STATES),
  channel: z.string(),
  address: z.string(),
  recipientAccount: z.string(),
  recipientName: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  subject: z.string(),
  tries: z.number().int(),
  /** The server's last answer (an SMTP reply), or the bounce text once 已退回. */
  lastAnswer: z.string().nullable(),
  /** Waits for, or went in, the user's daily digest. */
  viaDigest: z.boolean(),
  /** The digest mail that carried it (日报编号). */
  digestId: z.number().int().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type DeliveryRow = z.infer<typeof ZDeliveryRow>;

export const ZDeliveryPageRequestSchema = withDateRange(
  ZPageRequest(['createdAt'], {
    state: zOptionalEnum(DELIVERY_STATE_FILTERS, `状态只能是 ${DELIVERY_STATE_FILTERS.join('、')}`),
    kind: zOptionalEnum(NOTIFICATION_KINDS, KIND_MESSAGE),
    /** The recipient's account, name or address (contains). */
    recipient: zOptionalText(100),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);
export type DeliveryPageRequest = z.input<typeof ZDeliveryPageRequestSchema>;

export const ZResendSchema = z.object({
  ids: z
    .array(zId('发送记录'), { error: '请选择发送记录' })
    .min(1, '请选择要重新发送的记录')
    .max(100, '一次最多重新发送 100 条'),
});

export const ZBounceSchema = z.object({
  id: zId('发送记录'),
  /** The bounce as the mailbox received it (the MTA's reason line). */
  reason: zText('退信内容', 1000),
});
export type BounceRequest = z.input<typeof ZBounceSchema>;

/**
 * The bounce webhook (an MTA or mail service reports a bounce): the Message-ID the portal's mail
 * went out with, and the reason. Authenticated by MAIL_BOUNCE_TOKEN as a Bearer token.
 */
export const ZBounceReportSchema = z.object({
  messageId: zText('messageId', 250),
  reason: zText('退信原因', 1000),
});
export type BounceReport = z.input<typeof ZBounceReportSchema>;

/** An internal admin sets another user's address (the same rule as 个人设置); blank clears it. */
export const ZUserEmailSchema = z.object({
  account: zText('账号', 64),
  email: zOptionalEmail,
});
export type UserEmailRequest = z.input<typeof ZUserEmailSchema>;

export const notificationsApi = {
  bell: endpoint({
    path: 'notification/bell',
    access: USER_TYPES,
    tag,
    summary: '通知铃铛：未读数与最新几条',
    response: ZEnvelope(ZNotificationBell),
  }),
  page: endpoint({
    path: 'notification/page',
    access: USER_TYPES,
    tag,
    summary: '我的通知分页',
    body: ZNotificationPageRequestSchema,
    response: ZCappedPage(ZNotificationRow),
  }),
  markRead: endpoint({
    path: 'notification/markRead',
    access: USER_TYPES,
    tag,
    summary: '标记已读（不给编号：全部已读）',
    body: ZMarkReadSchema,
    response: ZEnvelope(z.object({ marked: z.number().int() })),
  }),
  settings: endpoint({
    path: 'notification/settings',
    access: USER_TYPES,
    tag,
    summary: '个人设置：我的邮箱与邮件通知选择',
    response: ZEnvelope(ZNotificationSettings),
  }),
  saveSettings: endpoint({
    path: 'notification/saveSettings',
    access: USER_TYPES,
    tag,
    summary: '保存个人设置（邮箱、各类通知是否发邮件）',
    body: ZSaveNotificationSettingsSchema,
    response: ZEnvelope(ZNotificationSettings),
  }),
  deliveries: endpoint({
    path: 'haier/notificationDelivery/page',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '通知发送记录分页',
    body: ZDeliveryPageRequestSchema,
    response: ZCappedPage(ZDeliveryRow),
  }),
  exportExcel: endpoint({
    path: 'haier/notificationDelivery/export',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'bytes',
    button: PAGES.notificationLog.buttons.export,
    summary: '导出通知发送记录（.xlsx，与列表相同的筛选）',
    body: ZDeliveryPageRequestSchema,
  }),
  resend: endpoint({
    path: 'haier/notificationDelivery/resend',
    access: DRAWING_ADMIN_TYPES,
    tag,
    button: PAGES.notificationLog.buttons.resend,
    summary: '重新发送失败的通知邮件',
    body: ZResendSchema,
    response: ZEnvelope(z.object({ queued: z.number().int() })),
  }),
  bounce: endpoint({
    path: 'haier/notificationDelivery/bounce',
    access: DRAWING_ADMIN_TYPES,
    tag,
    button: PAGES.notificationLog.buttons.bounce,
    summary: '标记为已退回：服务器已接收、后来退信的邮件（填写退信内容）',
    body: ZBounceSchema,
    response: ZEnvelope(ZDeliveryRow),
  }),
  updateUserEmail: endpoint({
    path: 'haier/user/updateEmail',
    access: DRAWING_ADMIN_TYPES,
    tag,
    button: PAGES.notificationLog.buttons.editEmail,
    summary: '修改用户的通知邮箱（内部管理员；留空则清除）',
    body: ZUserEmailSchema,
    response: ZEnvelope(z.object({ account: z.string(), name: z.string(), email: z.string().nullable() })),
  }),
  /** Not a person's call: the handler checks MAIL_BOUNCE_TOKEN (403 without it; 404 when no token is configured). */
  bounceReport: endpoint({
    path: 'notification/bounceReport',
    access: 'public',
    tag,
    summary: '退信回调（邮件服务器或发信服务调用，Authorization: Bearer MAIL_BOUNCE_TOKEN）',
    body: ZBounceReportSchema,
    response: ZEnvelope(z.object({ bounced: z.number().int() })),
  }),
} as const;
