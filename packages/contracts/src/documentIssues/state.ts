/** A question's states, its transition table, the thread's actions, and the working days its due dates count. */
import type { Transition } from '../workflow.ts';

// ---- states and the transition table -------------------------------------------------------------

export const ISSUE_STATUS_LABELS = {
  DRAFT: '草稿',
  PENDING: '待分派',
  PROCESSING: '处理中',
  ANSWERED: '已回复',
  CLOSED: '已关闭',
} as const;
export type IssueStatus = keyof typeof ISSUE_STATUS_LABELS;
export const ISSUE_STATUSES = Object.keys(ISSUE_STATUS_LABELS) as [IssueStatus, ...IssueStatus[]];

/**
 * The question's moves. submit: 草稿 → 待分派, and in the same transaction, when the role table
 * names exactly one answerer, route: 待分派 → 处理中 (assigned to that user). assign (take, assign or
 * reassign with a reason): 待分派/处理中 → 处理中. reply: 处理中 → 已回复 (the assignee only).
 * reopen (with a follow-up): 已回复/已关闭 → 处理中. close: 已回复 → 已关闭. Only drafts are edited or
 * deleted. The api moves with `UPDATE … WHERE status IN (from)`.
 */
export const ISSUE_TRANSITIONS = {
  submit: { from: ['DRAFT'], to: 'PENDING', label: '提交' },
  route: { from: ['PENDING'], to: 'PROCESSING', label: '自动分派' },
  assign: { from: ['PENDING', 'PROCESSING'], to: 'PROCESSING', label: '分派' },
  reply: { from: ['PROCESSING'], to: 'ANSWERED', label: '回复' },
  reopen: { from: ['ANSWERED', 'CLOSED'], to: 'PROCESSING', label: '重新打开' },
  close: { from: ['ANSWERED'], to: 'CLOSED', label: '关闭' },
} as const satisfies Record<string, Transition<IssueStatus>>;
export type IssueMove = keyof typeof ISSUE_TRANSITIONS;
export const ISSUE_EDITABLE: readonly IssueStatus[] = ['DRAFT'];

/** Why a question cannot make `move` (or be edited/deleted) from `status`: the 409's message. */
export function issueMoveRefusal(move: IssueMove | 'edit' | 'delete', status: IssueStatus): string {
  const now = `该问题当前为「${ISSUE_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿可以编辑`;
  if (move === 'delete') return `${now}，只有草稿可以删除`;
  const t = ISSUE_TRANSITIONS[move];
  if (move === 'submit' && status !== 'DRAFT') return '该问题已提交，不能重复提交';
  if (move === 'reply' && status === 'ANSWERED') return '该问题已回复，请勿重复回复';
  if (move === 'close' && status === 'CLOSED') return '该问题已关闭';
  return `${now}，不能${t.label}`;
}

/** Thread messages: each step of the question. */
export const ISSUE_ACTION_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑草稿',
  SUBMIT: '提交',
  ROUTE: '自动分派',
  ASSIGN: '分派',
  REPLY: '回复',
  REOPEN: '追问并重新打开',
  CLOSE: '关闭',
} as const;
export type IssueAction = keyof typeof ISSUE_ACTION_LABELS;
export const ISSUE_ACTIONS = Object.keys(ISSUE_ACTION_LABELS) as [IssueAction, ...IssueAction[]];

// ---- due dates -----------------------------------------------------------------------------------

/**
 * The day `n` working days after `day` (YYYY-MM-DD): working days are Monday to Friday. There is
 * no holiday calendar (public holidays and make-up working days are NOT taken into account).
 */
export function addWorkingDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  let left = n;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const w = d.getUTCDay();
    if (w !== 0 && w !== 6) left--;
  }
  return d.toISOString().slice(0, 10);
}
