/** Signing: one signature, an issued round with its signatures, and the signature (or return) a signer submits. */
import { z } from 'zod';
import { zId, zOptionalText } from '../fields.ts';
import { ZCountersignFile, ZCountersignSigner } from './content.ts';
import { COUNTERSIGN_DECISIONS, COUNTERSIGN_SIGNERS_MAX, COUNTERSIGN_STATUSES } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

/** One signature: who (user, supplier or department), the decision, when, from where, on which content. */
export const ZCountersignSignature = z.object({
  id: z.number().int(),
  round: z.number().int(),
  step: z.number().int(),
  /** Who signed is who the trail's SIGN or RETURN entry names: governed with 操作记录·操作人 / 操作人账号 (COUNTERSIGN_COLUMNS), absent when hidden. */
  userAccount: z.string().optional(),
  userName: z.string().optional(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  department: z.string().nullable(),
  decision: z.enum(COUNTERSIGN_DECISIONS),
  comment: z.string().nullable(),
  /** The sha256 of the round's content the signer signed. */
  contentSha256: z.string(),
  /** Governed (COUNTERSIGN_COLUMNS `rounds.signatures.ip`): absent when hidden for the caller, masked when masked. */
  ip: z.string().nullable().optional(),
  createdAt: z.string(),
});
export type CountersignSignature = z.infer<typeof ZCountersignSignature>;

/** One issued round: the content as issued (frozen), how it ended, and its signatures. */
export const ZCountersignRound = z.object({
  round: z.number().int(),
  title: z.string(),
  items: z.string(),
  dueDate: z.string(),
  noticeNumber: z.string().nullable(),
  files: z.array(ZCountersignFile),
  signers: z.array(ZCountersignSigner),
  contentSha256: z.string(),
  issuedAt: z.string(),
  /** Who issued is who the trail's ISSUE entry names: governed with 操作记录·操作人 (COUNTERSIGN_COLUMNS), absent when hidden. */
  issuedByName: z.string().optional(),
  /** null while the round is being signed. */
  outcome: z.enum(['RETURNED', 'COMPLETED']).nullable(),
  endedAt: z.string().nullable(),
  signatures: z.array(ZCountersignSignature),
});
export type CountersignRound = z.infer<typeof ZCountersignRound>;

// ---- requests ------------------------------------------------------------------------------------

/**
 * A signature (or a return): the round and step the signer saw — a stale page or a second submit
 * of the same step is refused (409), never doubled. 有条件同意 names the condition, 退回 the reason.
 */
export const ZCountersignSubmitSchema = z
  .object({
    id: zId('会签单'),
    round: zId('轮次'),
    step: z
      .number({ error: '缺少会签步骤' })
      .int('会签步骤无效')
      .min(0, '会签步骤无效')
      .max(COUNTERSIGN_SIGNERS_MAX, '会签步骤无效'),
    decision: z.enum(COUNTERSIGN_DECISIONS, { error: '请选择会签意见' }),
    comment: zOptionalText(500),
  })
  .superRefine((v, ctx) => {
    if (v.decision !== 'AGREE' && !v.comment)
      ctx.addIssue({
        code: 'custom',
        path: ['comment'],
        message: v.decision === 'RETURN' ? '请填写退回原因' : '请填写同意的条件',
      });
  });
export type CountersignSubmit = z.input<typeof ZCountersignSubmitSchema>;

export const ZCountersignSubmitResult = z.object({
  status: z.enum(COUNTERSIGN_STATUSES),
  round: z.number().int(),
  step: z.number().int(),
});
