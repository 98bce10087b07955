import { describe, expect, it } from 'vitest';
import {
  COUNTERSIGN_STATUSES,
  COUNTERSIGN_TRANSITIONS,
  ZCountersignSubmitSchema,
  canMove,
  countersignMoveRefusal,
  type CountersignMove,
} from './index.ts';

describe('the countersign transition table', () => {
  it('草稿/已退回 → 待供应商会签 → 待我方会签 → 已完成; 退回 from either signing state; 取消 from 草稿 or 已退回', () => {
    const moves = COUNTERSIGN_STATUSES.flatMap((s) =>
      (Object.keys(COUNTERSIGN_TRANSITIONS) as CountersignMove[])
        .filter((m) => canMove(COUNTERSIGN_TRANSITIONS, m, s))
        .map((m) => `${s} -${m}-> ${COUNTERSIGN_TRANSITIONS[m].to}`),
    );
    expect(moves).toEqual([
      'DRAFT -issue-> SUPPLIER_SIGNING',
      'DRAFT -cancel-> CANCELLED',
      'SUPPLIER_SIGNING -supplierSign-> INTERNAL_SIGNING',
      'SUPPLIER_SIGNING -return-> RETURNED',
      'INTERNAL_SIGNING -internalSign-> INTERNAL_SIGNING',
      'INTERNAL_SIGNING -complete-> COMPLETED',
      'INTERNAL_SIGNING -return-> RETURNED',
      'RETURNED -issue-> SUPPLIER_SIGNING',
      'RETURNED -cancel-> CANCELLED',
    ]);
  });

  it('says in Chinese why a move cannot be made', () => {
    expect(countersignMoveRefusal('issue', 'SUPPLIER_SIGNING')).toBe('该会签单已下发，不能重复下发');
    expect(countersignMoveRefusal('cancel', 'COMPLETED')).toBe('该会签单当前为「已完成」，不能取消');
    expect(countersignMoveRefusal('edit', 'INTERNAL_SIGNING')).toBe(
      '该会签单当前为「待我方会签」，只有草稿或已退回的会签单可以编辑',
    );
  });

  it('a condition or a return needs its text', () => {
    const issues = (v: object) =>
      ZCountersignSubmitSchema.safeParse({ id: 1, round: 1, step: 0, ...v }).error?.issues.map(
        (i) => `${i.path.join('.')}: ${i.message}`,
      );
    expect(issues({ decision: 'AGREE' })).toBeUndefined();
    expect(issues({ decision: 'CONDITIONAL', comment: ' ' })).toEqual(['comment: 请填写同意的条件']);
    expect(issues({ decision: 'RETURN' })).toEqual(['comment: 请填写退回原因']);
  });
});
