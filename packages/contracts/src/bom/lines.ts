/**
 * A BOM line: the levels, the line's fields (declared once, for the form, the import and the
 * server), and adding, changing and removing one.
 */
import { z } from 'zod';
import { zId, zOptionalText, zText } from '../fields.ts';

// ---- limits --------------------------------------------------------------------------------------

/** At most three levels: the supplied material (1), its components (2), theirs (3). */
export const BOM_MAX_LEVEL = 3;
export const BOM_LEVELS = ['2', '3'] as const;
export const BOM_LEVEL_LABELS = { 1: '一级', 2: '二级', 3: '三级' } as const;

// ---- a line's fields -------------------------------------------------------------------------------

/** 统一社会信用代码: 18 characters, digits and capitals without I, O, S, V, Z. */
export const CREDIT_CODE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;
/** A quantity: positive, at most 10 integer digits and 4 decimals. */
const QUANTITY = /^\d{1,10}(\.\d{1,4})?$/;
const PHONE = /^[0-9+\- ]{6,20}$/;

/** A decimal as text (as typed, as read from a cell): no binary rounding on the way to numeric(14,4). */
const zQuantity = z
  .string({ error: '请输入单位用量（文本形式的数字，如 "2.5"）' })
  .trim()
  .refine((s) => s !== '', { message: '请输入单位用量', abort: true })
  .refine((s) => QUANTITY.test(s), { message: '单位用量须为正数，最多 4 位小数', abort: true })
  .transform(Number)
  .refine((n) => n > 0, '单位用量须大于 0');

const zMobile = z.preprocess(
  (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
  z
    .string()
    .refine((s) => !s.includes('*'), { message: '联系电话不能是脱敏号码，请填写完整号码', abort: true })
    .refine((s) => PHONE.test(s), '联系电话格式不正确（6–20 位数字）')
    .optional(),
);

/** The fields of a line, as the form sends them and as an import row is checked. */
export const bomLineFields = {
  componentCode: zText('子件编码', 40),
  componentName: zText('子件名称', 200),
  spec: zOptionalText(200),
  quantity: zQuantity,
  unit: zText('单位', 16),
  hasDrawing: z.boolean({ error: '请选择是否有图纸' }),
  vendorName: zText('供应商名称', 200),
  vendorCreditCode: zText('统一社会信用代码', 18)
    .refine((s) => CREDIT_CODE.test(s.toUpperCase()), '统一社会信用代码应为 18 位数字或大写字母')
    .transform((s) => s.toUpperCase()),
  vendorRegion: zOptionalText(100),
  vendorContact: zOptionalText(50),
  vendorMobile: zMobile,
};
export const ZBomLineFieldsSchema = z.object(bomLineFields);
export type BomLineFields = z.input<typeof ZBomLineFieldsSchema>;

// ---- requests --------------------------------------------------------------------------------------

const zOptionalId = (label: string) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), zId(label).optional());

/** A new line: under the material (level 2) or under a level-2 line (`parentId`, level 3). */
export const ZAddBomLineRequestSchema = z.object({
  materialCode: zText('一级物料', 40, { verb: '请选择' }),
  parentId: zOptionalId('上级子件'),
  ...bomLineFields,
});
export type AddBomLineRequest = z.input<typeof ZAddBomLineRequestSchema>;
/** A line's fields changed; where it sits stays. The mobile left out keeps the one on record (the form only ever sees it masked). */
export const ZUpdateBomLineRequestSchema = z.object({ id: zId('BOM 行'), ...bomLineFields });
export type UpdateBomLineRequest = z.input<typeof ZUpdateBomLineRequestSchema>;
export const ZBomLineIdRequestSchema = z.object({ id: zId('BOM 行') });
