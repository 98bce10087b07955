import { describe, expect, it } from 'vitest';
import {
  NOTICE_STATUSES,
  NOTICE_TRANSITIONS,
  RECIPIENT_STATUSES,
  RECIPIENT_TRANSITIONS,
  ZNoticeDraftSchema,
  canMove,
  noticeMoveRefusal,
} from './index.ts';

describe('the notice transition table', () => {
  it('草稿 → 已发布 → 已关闭, 已发布 → 已撤回, and nothing else', () => {
    const moves = NOTICE_STATUSES.flatMap((s) =>
      (Object.keys(NOTICE_TRANSITIONS) as (keyof typeof NOTICE_TRANSITIONS)[])
        .filter((m) => canMove(NOTICE_TRANSITIONS, m, s))
        .map((m) => `${s} -${m}-> ${NOTICE_TRANSITIONS[m].to}`),
    );
    expect(moves).toEqual([
      'DRAFT -publish-> PUBLISHED',
      'PUBLISHED -close-> CLOSED',
      'PUBLISHED -withdraw-> WITHDRAWN',
    ]);
  });

  it('未读 → 已读 → 已确认; confirming an unread notice reads it too', () => {
    expect(RECIPIENT_STATUSES.filter((s) => canMove(RECIPIENT_TRANSITIONS, 'read', s))).toEqual(['UNREAD']);
    expect(RECIPIENT_STATUSES.filter((s) => canMove(RECIPIENT_TRANSITIONS, 'confirm', s))).toEqual(['UNREAD', 'READ']);
  });

  it('says in Chinese why a move cannot be made', () => {
    expect(noticeMoveRefusal('publish', 'PUBLISHED')).toBe('该通知已发布，不能重复发布');
    expect(noticeMoveRefusal('withdraw', 'WITHDRAWN')).toBe('该通知已撤回');
    expect(noticeMoveRefusal('close', 'DRAFT')).toBe('该通知当前为「草稿」，不能关闭');
    expect(noticeMoveRefusal('edit', 'CLOSED')).toBe('该通知当前为「已关闭」，只有草稿可以编辑');
  });
});

describe('a draft', () => {
  const ok = { title: '标题', reason: '原因', productLineCode: 'BX', dueDate: '2026-12-01', newFileIds: [1] };
  it('needs a change, no repeats, a real day', () => {
    expect(ZNoticeDraftSchema.safeParse(ok).success).toBe(true);
    const issues = (v: object) =>
      ZNoticeDraftSchema.safeParse({ ...ok, ...v }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ newFileIds: [] })).toEqual(['newFileIds: 请至少添加一项变更的图纸']);
    expect(issues({ newFileIds: [3, 3] })).toEqual(['newFileIds: 同一版本不能重复添加']);
    expect(issues({ dueDate: '2026-02-30' })).toEqual(['dueDate: 确认截止日期无效']);
    expect(issues({ title: ' ' })).toEqual(['title: 请输入标题']);
  });
});
