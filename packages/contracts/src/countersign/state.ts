/** A countersign list's states and moves, a signer's decisions, the trail's and the page's actions, and the limits. */
import type { Transition } from '../workflow.ts';

// ---- states and the transition table -------------------------------------------------------------

export const COUNTERSIGN_STATUS_LABELS = {
  DRAFT: '草稿',
  SUPPLIER_SIGNING: '待供应商会签',
  INTERNAL_SIGNING: '待我方会签',
  RETURNED: '已退回',
  COMPLETED: '已完成',
  CANCELLED: '已取消',
} as const;
export type CountersignStatus = keyof typeof COUNTERSIGN_STATUS_LABELS;
export const COUNTERSIGN_STATUSES = Object.keys(COUNTERSIGN_STATUS_LABELS) as [
  CountersignStatus,
  ...CountersignStatus[],
];

/**
 * The moves: 草稿/已退回 → 待供应商会签 (issue; from 已退回 it opens the next round) → 待我方会签
 * (the supplier signs) → 待我方会签 (an internal signer signs, not the last) → 已完成 (the last
 * signer signs); 退回 from either signing state ends the round; 已取消 from 草稿 or 已退回. The api
 * moves with `UPDATE … WHERE status = <from> AND round = <seen> AND step = <seen>`.
 */
export const COUNTERSIGN_TRANSITIONS = {
  issue: { from: ['DRAFT', 'RETURNED'], to: 'SUPPLIER_SIGNING', label: '下发' },
  supplierSign: { from: ['SUPPLIER_SIGNING'], to: 'INTERNAL_SIGNING', label: '会签' },
  internalSign: { from: ['INTERNAL_SIGNING'], to: 'INTERNAL_SIGNING', label: '会签' },
  complete: { from: ['INTERNAL_SIGNING'], to: 'COMPLETED', label: '会签' },
  return: { from: ['SUPPLIER_SIGNING', 'INTERNAL_SIGNING'], to: 'RETURNED', label: '退回' },
  cancel: { from: ['DRAFT', 'RETURNED'], to: 'CANCELLED', label: '取消' },
} as const satisfies Record<string, Transition<CountersignStatus>>;
export type CountersignMove = keyof typeof COUNTERSIGN_TRANSITIONS;
/** Only the issuer edits, and only a draft or a returned round (the next round's content). */
export const COUNTERSIGN_EDITABLE: readonly CountersignStatus[] = ['DRAFT', 'RETURNED'];

/** Why a list cannot make `move` (or be edited) from `status`: the 409's message. */
export function countersignMoveRefusal(move: CountersignMove | 'edit', status: CountersignStatus): string {
  const now = `该会签单当前为「${COUNTERSIGN_STATUS_LABELS[status]}」`;
  if (move === 'edit') return `${now}，只有草稿或已退回的会签单可以编辑`;
  if (move === 'issue' && (status === 'SUPPLIER_SIGNING' || status === 'INTERNAL_SIGNING'))
    return '该会签单已下发，不能重复下发';
  if (move === 'cancel' && status === 'CANCELLED') return '该会签单已取消';
  return `${now}，不能${COUNTERSIGN_TRANSITIONS[move].label}`;
}

/** A signer's decision. 有条件同意 and 退回 need a text (the condition, the reason). */
export const COUNTERSIGN_DECISION_LABELS = { AGREE: '同意', CONDITIONAL: '有条件同意', RETURN: '退回' } as const;
export type CountersignDecision = keyof typeof COUNTERSIGN_DECISION_LABELS;
export const COUNTERSIGN_DECISIONS = Object.keys(COUNTERSIGN_DECISION_LABELS) as [
  CountersignDecision,
  ...CountersignDecision[],
];

export const COUNTERSIGN_EVENT_LABELS = {
  CREATE: '创建草稿',
  UPDATE: '编辑',
  ISSUE: '下发',
  SIGN: '会签',
  RETURN: '退回',
  COMPLETE: '完成',
  CANCEL: '取消',
  DOWNLOAD: '下载签核单',
} as const;
export type CountersignEventAction = keyof typeof COUNTERSIGN_EVENT_LABELS;
export const COUNTERSIGN_EVENT_ACTIONS = Object.keys(COUNTERSIGN_EVENT_LABELS) as [
  CountersignEventAction,
  ...CountersignEventAction[],
];

/** What the current user may do on a list now (the server decides; the page shows these only). */
export const COUNTERSIGN_ACTION_LABELS = {
  edit: '编辑',
  issue: '下发',
  cancel: '取消',
  sign: '会签',
  download: '下载签核单',
} as const;
export type CountersignAction = keyof typeof COUNTERSIGN_ACTION_LABELS;
export const COUNTERSIGN_ACTIONS = Object.keys(COUNTERSIGN_ACTION_LABELS) as [
  CountersignAction,
  ...CountersignAction[],
];

export const COUNTERSIGN_FILES_MAX = 50;
export const COUNTERSIGN_SIGNERS_MAX = 10;
/** A new list's due date: this many days after today. */
export const COUNTERSIGN_DUE_DAYS_DEFAULT = 7;
