/**
 * What a list is about: the file versions it concerns, its internal countersigners in order (and
 * whom the form may pick), and the draft form that edits them.
 */
import { z } from 'zod';
import { zDay, zId, zOptionalText, zText } from '../fields.ts';
import { FILE_STATUSES, FILE_TYPE_NAMES } from '../archives.ts';
import { COUNTERSIGN_FILES_MAX, COUNTERSIGN_SIGNERS_MAX } from './state.ts';

// ---- rows ----------------------------------------------------------------------------------------

/** A file version concerned, with the sha256 of its bytes as the archive stores it. */
export const ZCountersignFile = z.object({
  fileId: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  status: z.enum(FILE_STATUSES),
  fileName: z.string(),
  fileType: z.enum(FILE_TYPE_NAMES),
  materialCode: z.string(),
  sha256: z.string(),
});
export type CountersignFile = z.infer<typeof ZCountersignFile>;

/** An internal countersigner: its place in the order (1…n), and who. */
export const ZCountersignSigner = z.object({
  step: z.number().int(),
  userId: z.number().int(),
  account: z.string(),
  name: z.string(),
  department: z.string(),
});
export type CountersignSigner = z.infer<typeof ZCountersignSigner>;

/** An internal user that may countersign (types 3/7/8/9). */
export const ZCountersignerOption = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  department: z.string(),
});
export type CountersignerOption = z.infer<typeof ZCountersignerOption>;

// ---- requests ------------------------------------------------------------------------------------

/** A draft (or the next round's content): what the form edits. */
export const ZCountersignDraftSchema = z.object({
  title: zText('标题', 100),
  supplierCode: zText('供应商', 32, { verb: '请选择' }),
  /** Optional; null (a cleared picker) counts as none. */
  noticeId: z.preprocess((v) => (v === null || v === '' ? undefined : v), zId('变更通知').optional()),
  items: zText('会签事项', 2000),
  dueDate: zDay('会签截止日期'),
  fileIds: z
    .array(zId('文件版本'), { error: '请选择涉及的文件版本' })
    .min(1, '请至少选择一个涉及的文件版本')
    .max(COUNTERSIGN_FILES_MAX, `最多 ${COUNTERSIGN_FILES_MAX} 个文件版本`)
    .refine((ids) => new Set(ids).size === ids.length, '同一文件版本不能重复选择'),
  signerIds: z
    .array(zId('会签人'), { error: '请选择我方会签人' })
    .min(1, '请至少选择一位我方会签人')
    .max(COUNTERSIGN_SIGNERS_MAX, `最多 ${COUNTERSIGN_SIGNERS_MAX} 位会签人`)
    .refine((ids) => new Set(ids).size === ids.length, '同一会签人不能重复选择'),
});
export type CountersignDraft = z.input<typeof ZCountersignDraftSchema>;
export const ZCountersignUpdateSchema = ZCountersignDraftSchema.extend({ id: zId('会签单') });

export const ZCountersignerRequestSchema = z.object({ keyword: zOptionalText(64) });
/** File versions of the archive to pick from (any status: a sign-off may concern a version not yet effective). */
export const ZCountersignFileRequestSchema = z.object({
  keyword: zOptionalText(100),
  /** Only versions of materials this supplier supplies (what a list for it may name). */
  supplierCode: zOptionalText(32),
  ids: z.array(zId('文件')).max(COUNTERSIGN_FILES_MAX, `最多 ${COUNTERSIGN_FILES_MAX} 个文件`).optional(),
});
