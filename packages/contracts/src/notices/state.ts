/** A notice's and a recipient's states, their transition tables, the audit trail's actions, and the limits. */
import type { Transition } from '../workflow.ts';

// ---- states and their transition tables ----------------------------------------------------------

export const NOTICE_STATUS_LABELS = {
  DRAFT: '草稿',
  PUBLISHED: '已发布',
  CLOSED: '已关闭',
  WITHDRAWN: '已撤回',
} as const;
export type NoticeStatus = keyof typeof NOTICE_STATUS_LABELS;
export const NOTICE_STATUSES = Object.keys(NOTICE_STATUS_LABELS) as [NoticeStatus, ...NoticeStatus[]];

export const RECIPIENT_STATUS_LABELS = { UNREAD: '未读', READ: '已读', CONFIRMED: '已确认' } as const;
export type RecipientStatus = keyof typeof RECIPIENT_STATUS_LABELS;
export const RECIPIENT_STATUSES = Object.keys(RECIPIENT_STATUS_LABELS) as [RecipientStatus, ...RecipientStatus[]];

/** A recipient filter: its status, or OVERDUE (past the due date and not confirmed — derived, never stored). */
export const RECIPIENT_FILTER_LABELS = { ...RECIPIENT_STATUS_LABELS, OVERDUE: '逾期' } as const;
export type RecipientFilter = keyof typeof RECIPIENT_FILTER_LABELS;
export const RECIPIENT_FILTERS = Object.keys(RECIPIENT_FILTER_LABELS) as [RecipientFilter, ...RecipientFilter[]];

/**
 * The notice's moves: 草稿 → 已发布 → 已关闭, or 已发布 → 已撤回 (with a reason). Editing is not a
 * move: only a draft can be edited. The api moves with `UPDATE … WHERE status IN (from)`.
 */
export const NOTICE_TRANSITIONS = {
  publish: { from: ['DRAFT'], to: 'PUBLISHED', label: '发布' },
  close: { from: ['PUBLISHED'], to: 'CLOSED', label: '关闭' },
  withdraw: { from: ['PUBLISHED'], to: 'WITHDRAWN', label: '撤回' },
} as const satisfies Record<string, Transition<NoticeStatus>>;
export type NoticeMove = keyof typeof NOTICE_TRANSITIONS;
export const NOTICE_EDITABLE: readonly NoticeStatus[] = ['DRAFT'];

/**
 * A recipient's moves: 未读 → 已读 (a user of the supplier opens it) → 已确认. Confirming an unread
 * notice reads it too. Repeating a move that is already done changes nothing and is not an error.
 */
export const RECIPIENT_TRANSITIONS = {
  read: { from: ['UNREAD'], to: 'READ', label: '阅读' },
  confirm: { from: ['UNREAD', 'READ'], to: 'CONFIRMED', label: '确认' },
} as const satisfies Record<string, Transition<RecipientStatus>>;
export type RecipientMove = keyof typeof RECIPIENT_TRANSITIONS;

/** Why a notice cannot make `move` (or be edited) from `status`: the 409's message. */
export function noticeMoveRefusal(move: NoticeMove | 'edit', status: NoticeStatus): string {
  const now = `该通知当前为「${NOTICE_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿可以编辑`;
  const t = NOTICE_TRANSITIONS[move];
  if (status === t.to) return move === 'publish' ? '该通知已发布，不能重复发布' : `该通知已${t.label}`;
  return `${now}，不能${t.label}`;
}

/** Notice events in the audit trail. */
export const NOTICE_EVENT_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑草稿',
  PUBLISH: '发布',
  WITHDRAW: '撤回',
  CLOSE: '关闭',
  REMIND: '催办',
  READ: '阅读',
  CONFIRM: '确认',
} as const;
export type NoticeEventAction = keyof typeof NOTICE_EVENT_LABELS;
export const NOTICE_EVENT_ACTIONS = Object.keys(NOTICE_EVENT_LABELS) as [NoticeEventAction, ...NoticeEventAction[]];

/** A new notice's confirmation due date: this many days after today. */
export const NOTICE_DUE_DAYS_DEFAULT = 7;
export const NOTICE_CHANGES_MAX = 50;
/** A recipient reminded less than this long ago is not reminded again. */
export const REMIND_INTERVAL_MINUTES = 60;
/** The bell's dropdown shows this many notices. */
export const BELL_LATEST = 5;
