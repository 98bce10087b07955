/** The application state machine and the request schemas a form shares with the server. */
import { describe, expect, it } from 'vitest';
import {
  APPLICATION_STATUSES,
  APPLICATION_TRANSITIONS,
  ZApproveRequestSchema,
  ZCreateApplyRequestSchema,
  canMoveApplication,
  isEditable,
  type ApplicationMove,
} from './index.ts';

const MOVES = Object.keys(APPLICATION_TRANSITIONS) as ApplicationMove[];

describe('the transition table', () => {
  it('草稿 → 已提交 → 已批准 / 已驳回, 已提交 → 已撤回; nothing leaves a decided or withdrawn application', () => {
    const next = Object.fromEntries(
      APPLICATION_STATUSES.map((s) => [
        s,
        MOVES.filter((m) => canMoveApplication(s, m))
          .map((m) => APPLICATION_TRANSITIONS[m].to)
          .sort(),
      ]),
    );
    expect(next).toEqual({
      DRAFT: ['SUBMITTED'],
      SUBMITTED: ['APPROVED', 'REJECTED', 'WITHDRAWN'],
      APPROVED: [],
      REJECTED: [],
      WITHDRAWN: [],
    });
  });

  it('only a draft is edited or deleted', () => {
    expect(APPLICATION_STATUSES.filter(isEditable)).toEqual(['DRAFT']);
  });
});

describe('request schemas', () => {
  const apply = { materialCodes: ['0034000202'], validFrom: '2026-11-23', validUntil: '2027-11-22', reason: '改模' };

  it('an application: materials, a period in order, a reason', () => {
    expect(ZCreateApplyRequestSchema.safeParse(apply).success).toBe(true);
    const reversed = ZCreateApplyRequestSchema.safeParse({ ...apply, validUntil: '2026-11-01' });
    expect(reversed.error?.issues).toEqual([
      expect.objectContaining({ path: ['validUntil'], message: '截止日期不能早于开始日期' }),
    ]);
    expect(ZCreateApplyRequestSchema.safeParse({ ...apply, materialCodes: [] }).error?.issues[0]?.message).toBe(
      '请选择物料',
    );
  });

  it('a rejection needs a reason; a partial or shortened approval is one application at a time', () => {
    expect(ZApproveRequestSchema.safeParse({ ids: [1], decision: 'REJECT' }).error?.issues).toEqual([
      expect.objectContaining({ path: ['comment'], message: '请填写驳回原因' }),
    ]);
    expect(
      ZApproveRequestSchema.safeParse({ ids: [1, 2], decision: 'APPROVE', validUntil: '2027-01-01' }).error?.issues[0]
        ?.path,
    ).toEqual(['ids']);
    expect(ZApproveRequestSchema.safeParse({ ids: [1, 2], decision: 'APPROVE' }).success).toBe(true);
  });
});
