/**
 * The supplier's confidentiality agreement and drawing confirmations (the legacy portal's
 * supplier/standardlog/*, supplier/supplierDrawingFileInfomation/supplierConfirm). Who acts is
 * the session's user; nothing in a body can name another user or supplier.
 */
import { z } from 'zod';
import { SUPPLIER_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
import { ZEnvelope } from './envelope.ts';
import { zId } from './fields.ts';
import { ZFileIdRequestSchema } from './archives.ts';

/** The code of a 403 refusing a supplier who has not accepted the current agreement: the web shows the agreement. */
export const KEEPSECRET_REQUIRED_CODE = '40301';

export const ZAgreement = z.object({
  id: z.number().int(),
  version: z.number().int(),
  title: z.string(),
  content: z.string(),
});
export const ZKeepsecretState = z.object({
  accepted: z.boolean(),
  acceptedAt: z.string().nullable(),
  agreement: ZAgreement,
});
export type KeepsecretState = z.infer<typeof ZKeepsecretState>;
export const ZConfirmState = z.object({ confirmed: z.boolean(), confirmedAt: z.string().nullable() });
export type ConfirmState = z.infer<typeof ZConfirmState>;
export const ZConfirmResult = z.object({ confirmed: z.number().int(), alreadyConfirmed: z.number().int() });
export type ConfirmResult = z.infer<typeof ZConfirmResult>;

const access = SUPPLIER_TYPES;
const tag = 'standardlog';

export const standardlogApi = {
  hasKeepsecret: endpoint({
    path: 'supplier/standardlog/hasKeepsecret',
    access,
    tag,
    summary: '当前保密协议及本人是否已签署',
    response: ZEnvelope(ZKeepsecretState),
  }),
  insertKeepsecret: endpoint({
    path: 'supplier/standardlog/insertKeepsecret',
    access,
    tag,
    summary: '签署当前版本的保密协议',
    body: z.object({ agreementId: zId('协议编号') }),
    response: ZEnvelope(ZKeepsecretState),
  }),
  hasConfirmLog: endpoint({
    path: 'supplier/standardlog/hasConfirmLog',
    access,
    tag,
    summary: '本人是否已确认该图纸',
    body: ZFileIdRequestSchema,
    response: ZEnvelope(ZConfirmState),
  }),
  insertConfirmLog: endpoint({
    path: 'supplier/standardlog/insertConfirmLog',
    access,
    tag,
    summary: '确认一份图纸',
    body: ZFileIdRequestSchema,
    response: ZEnvelope(ZConfirmState),
  }),
  supplierConfirm: endpoint({
    path: 'supplier/supplierDrawingFileInfomation/supplierConfirm',
    access,
    tag,
    summary: '批量确认图纸（全部可确认才写入）',
    body: z.object({
      ids: z
        .array(zId('文件编号'), { error: '请选择要确认的图纸' })
        .min(1, '请选择要确认的图纸')
        .max(100, '一次最多确认 100 份图纸'),
    }),
    response: ZEnvelope(ZConfirmResult),
  }),
} as const;
