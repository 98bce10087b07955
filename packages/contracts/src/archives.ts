/**
 * Drawing archives (issue 3): standard files and drawings by product line → material, their
 * versions, supplier access (grant + confidentiality agreement), the five logs and the export.
 * Call names are spec §7's, under /esm-server/api.
 */
import { z } from 'zod';
import { ZEnvelope, ZPagedEnvelope } from './envelope.ts';
import { ZPageRequest, zOptionalDate, zOptionalText } from './paging.ts';

// ---- constants ------------------------------------------------------------------------------

export const FILE_STATUS_LABELS = { EFFECTIVE: '生效', HISTORY: '历史版本', OBSOLETE: '已作废' } as const;
export type FileStatus = keyof typeof FILE_STATUS_LABELS;
export const FILE_STATUSES = Object.keys(FILE_STATUS_LABELS) as [FileStatus, ...FileStatus[]];

export const FILE_CATEGORY_LABELS = { DRAWING: '图纸', STANDARD: '企业标准', SPEC: '技术规范', OTHER: '其他' } as const;
export type FileCategory = keyof typeof FILE_CATEGORY_LABELS;
export const FILE_CATEGORIES = Object.keys(FILE_CATEGORY_LABELS) as [FileCategory, ...FileCategory[]];

export const SECRET_LEVEL_LABELS = { PUBLIC: '公开', INTERNAL: '内部', SECRET: '秘密', CONFIDENTIAL: '机密' } as const;
export type SecretLevel = keyof typeof SECRET_LEVEL_LABELS;
export const SECRET_LEVELS = Object.keys(SECRET_LEVEL_LABELS) as [SecretLevel, ...SecretLevel[]];

export const LOG_ACTION_LABELS = { VIEW: '查看', CONFIRM: '确认', DOWNLOAD: '下载', PRINT: '打印', KEEPSECRET: '签署保密协议' } as const;
export type LogAction = keyof typeof LOG_ACTION_LABELS;
export const LOG_OUTCOME_LABELS = { OK: '成功', REFUSED: '已拒绝' } as const;
/** The code of a 403 refusing a supplier who has not accepted the current agreement: the web shows the agreement. */
export const KEEPSECRET_REQUIRED_CODE = '40301';
export type LogOutcome = keyof typeof LOG_OUTCOME_LABELS;

/** Stored as uploaded; pdf and images are viewed in the browser, dwg/dxf only downloaded. */
export const FILE_TYPES = {
  pdf: { mime: 'application/pdf', viewable: true },
  png: { mime: 'image/png', viewable: true },
  jpg: { mime: 'image/jpeg', viewable: true },
  dwg: { mime: 'image/vnd.dwg', viewable: false },
  dxf: { mime: 'image/vnd.dxf', viewable: false },
} as const;
export type FileType = keyof typeof FILE_TYPES;
export const FILE_TYPE_NAMES = Object.keys(FILE_TYPES) as [FileType, ...FileType[]];
/** Extensions accepted at upload (jpeg is stored as jpg). */
export const UPLOAD_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg', '.dwg', '.dxf'] as const;
export const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Lists page through at most this many rows (page × size); totals are counted up to it and
 * reported as capped beyond (no exact count(*) over millions of rows per request).
 */
export const LIST_WINDOW_MAX = 10_000;
/** The Excel export refuses more rows than this: narrow the filters instead. */
export const EXPORT_MAX_ROWS = 200_000;

// ---- tree ------------------------------------------------------------------------------------

export const ZProductLine = z.object({ code: z.string(), name: z.string(), materialCount: z.number().int() });
export type ProductLine = z.infer<typeof ZProductLine>;
export const ZProductLineResponseSchema = ZEnvelope(z.array(ZProductLine));

export const ZMaterialRow = z.object({
  code: z.string(),
  name: z.string(),
  spec: z.string().nullable(),
  productLineCode: z.string(),
  productLineName: z.string(),
  purchaser: z.string().nullable(),
});
export type MaterialRow = z.infer<typeof ZMaterialRow>;
export const ZMaterialPagerRequestSchema = ZPageRequest(['code', 'name'], {
  productLineCode: zOptionalText(32),
  /** Matches code or name. */
  keyword: zOptionalText(100),
});
export type MaterialPagerRequest = z.input<typeof ZMaterialPagerRequestSchema>;

/** A paged list whose total may be capped at LIST_WINDOW_MAX (then `totalCapped` is true). */
function ZCappedPage<T extends z.ZodType>(row: T) {
  return ZPagedEnvelope(row).extend({ totalCapped: z.boolean().optional() });
}
export const ZMaterialPagerResponseSchema = ZCappedPage(ZMaterialRow);

// ---- files -----------------------------------------------------------------------------------

export const ZStandardFileRow = z.object({
  id: z.number().int(),
  standardCode: z.string(),
  name: z.string(),
  version: z.string(),
  versionNo: z.number().int(),
  materialCode: z.string(),
  materialName: z.string(),
  productLineCode: z.string(),
  category: z.enum(FILE_CATEGORIES),
  secretLevel: z.enum(SECRET_LEVELS),
  status: z.enum(FILE_STATUSES),
  /** YYYY-MM-DD */
  effectiveDate: z.string(),
  fileName: z.string(),
  fileSize: z.number().int(),
  fileType: z.enum(FILE_TYPE_NAMES),
  viewable: z.boolean(),
  uploaderName: z.string(),
  createdAt: z.string(),
  obsoletedAt: z.string().nullable(),
  obsoleteReason: z.string().nullable(),
  remark: z.string().nullable(),
  /** Supplier lists only: whether this user has confirmed the file, and when. */
  confirmedAt: z.string().nullable().optional(),
});
export type StandardFileRow = z.infer<typeof ZStandardFileRow>;

export const FILE_SORT_FIELDS = ['standardCode', 'name', 'version', 'effectiveDate', 'createdAt', 'materialCode'] as const;
/** Codes (product line, material, standard) and the version match exactly — they are identifiers,
 * indexed as such; the name matches a part of it, case-insensitively. */
const fileFilters = {
  productLineCode: zOptionalText(32),
  materialCode: zOptionalText(40),
  standardCode: zOptionalText(64),
  name: zOptionalText(200),
  version: zOptionalText(32),
  /** Effective date range, YYYY-MM-DD (days in UTC+8). */
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
};
const dateOrder = <T extends { dateFrom?: string; dateTo?: string }>(v: T) => !v.dateFrom || !v.dateTo || v.dateFrom <= v.dateTo;
const dateOrderError = { message: '开始日期不能晚于结束日期', path: ['dateTo'] };

/** haier/standardFile/getStandardFilePager and the export: every version, by status. */
export const ZStandardFilePagerRequestSchema = ZPageRequest(FILE_SORT_FIELDS, {
  ...fileFilters,
  status: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(FILE_STATUSES, { error: '状态只能是 EFFECTIVE、HISTORY 或 OBSOLETE' }).optional()),
}).refine(dateOrder, dateOrderError);
export type StandardFilePagerRequest = z.input<typeof ZStandardFilePagerRequestSchema>;
export const ZStandardFilePagerResponseSchema = ZCappedPage(ZStandardFileRow);

/** haier/standardFileHistory/getStandardFilePager: versions no longer current (HISTORY, OBSOLETE). */
export const ZStandardFileHistoryRequestSchema = ZPageRequest(FILE_SORT_FIELDS, fileFilters).refine(dateOrder, dateOrderError);

/** supplier/standardFile/getStandardFilePager (EFFECTIVE) and supplierDrawingFileInfomation/searchByMaterialHistory (HISTORY). */
export const ZSupplierFilePagerRequestSchema = ZPageRequest(FILE_SORT_FIELDS, fileFilters).refine(dateOrder, dateOrderError);
export type SupplierFilePagerRequest = z.input<typeof ZSupplierFilePagerRequestSchema>;

/** Multipart fields of haier/standardFile/upload (the file part is named `file`). */
export const ZUploadFieldsSchema = z.object({
  standardCode: z.string({ error: '请输入标准编号' }).trim().min(1, '请输入标准编号').max(64, '标准编号不能超过 64 个字符').regex(/^[\w\-./]+$/, '标准编号只能包含字母、数字和 - _ . /'),
  name: z.string({ error: '请输入名称' }).trim().min(1, '请输入名称').max(200, '名称不能超过 200 个字符'),
  version: z.string({ error: '请输入版本' }).trim().min(1, '请输入版本').max(32, '版本不能超过 32 个字符'),
  materialCode: z.string({ error: '请选择物料' }).trim().min(1, '请选择物料').max(40),
  category: z.enum(FILE_CATEGORIES, { error: '请选择类别' }),
  secretLevel: z.enum(SECRET_LEVELS, { error: '请选择保密等级' }),
  effectiveDate: z.string({ error: '请选择生效日期' }).regex(/^\d{4}-\d{2}-\d{2}$/, '生效日期格式应为 YYYY-MM-DD'),
  remark: zOptionalText(500),
});
export type UploadFields = z.infer<typeof ZUploadFieldsSchema>;
export const ZUploadResponseSchema = ZEnvelope(ZStandardFileRow);

export const ZObsoleteRequestSchema = z.object({
  id: z.coerce.number({ error: '缺少文件编号' }).int().positive('文件编号无效'),
  reason: z.string({ error: '请填写作废原因' }).trim().min(1, '请填写作废原因').max(200, '作废原因不能超过 200 个字符'),
});
export const ZObsoleteResponseSchema = ZEnvelope(ZStandardFileRow);

/** file/view, file/print, file/download: the body names the file; the answer is its stamped bytes. */
export const ZFileActionRequestSchema = z.object({ id: z.coerce.number({ error: '缺少文件编号' }).int().positive('文件编号无效') });

// ---- suppliers ---------------------------------------------------------------------------------

export const ZSupplierRow = z.object({ code: z.string(), name: z.string(), materialCount: z.number().int() });
export const ZSupplierInformationRequestSchema = ZPageRequest(['code', 'name'], { keyword: zOptionalText(100) });
export const ZSupplierInformationResponseSchema = ZCappedPage(ZSupplierRow);

export const GRANT_STATE_LABELS = { VALID: '授权有效', EXPIRED: '授权已过期', NOT_YET: '授权未生效', NONE: '未授权' } as const;
export type GrantState = keyof typeof GRANT_STATE_LABELS;
export const ZFileSupplierRow = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  grantState: z.enum(Object.keys(GRANT_STATE_LABELS) as [GrantState, ...GrantState[]]),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  /** May this supplier open the file now (supplies the material, valid grant, file not obsolete). */
  canAccess: z.boolean(),
});
export const ZFileSupplierRequestSchema = z.object({ id: z.coerce.number({ error: '缺少文件编号' }).int().positive('文件编号无效') });
export const ZFileSupplierResponseSchema = ZEnvelope(z.array(ZFileSupplierRow));

export const ZHasEmpowerRequestSchema = z.object({ materialCode: z.string({ error: '缺少物料编码' }).trim().min(1, '缺少物料编码').max(40) });
export const ZHasEmpowerResponseSchema = ZEnvelope(
  z.object({ empowered: z.boolean(), validFrom: z.string().nullable(), validUntil: z.string().nullable(), reason: z.string().nullable() }),
);

// ---- confidentiality agreement and confirmation ---------------------------------------------------

export const ZAgreement = z.object({ id: z.number().int(), version: z.number().int(), title: z.string(), content: z.string() });
export const ZHasKeepsecretResponseSchema = ZEnvelope(z.object({ accepted: z.boolean(), acceptedAt: z.string().nullable(), agreement: ZAgreement }));
export const ZInsertKeepsecretRequestSchema = z.object({ agreementId: z.coerce.number({ error: '缺少协议编号' }).int().positive('协议编号无效') });

export const ZHasConfirmRequestSchema = z.object({ id: z.coerce.number({ error: '缺少文件编号' }).int().positive('文件编号无效') });
export const ZHasConfirmResponseSchema = ZEnvelope(z.object({ confirmed: z.boolean(), confirmedAt: z.string().nullable() }));
export const ZSupplierConfirmRequestSchema = z.object({
  ids: z.array(z.coerce.number().int().positive('文件编号无效'), { error: '请选择要确认的图纸' }).min(1, '请选择要确认的图纸').max(100, '一次最多确认 100 份图纸'),
});
export const ZSupplierConfirmResponseSchema = ZEnvelope(z.object({ confirmed: z.number().int(), alreadyConfirmed: z.number().int() }));

// ---- the five logs ---------------------------------------------------------------------------

export const LOG_SORT_FIELDS = ['createdAt', 'standardCode', 'supplierCode', 'userAccount', 'materialCode'] as const;
/** The supplier, material and standard codes match exactly (indexed); the user matches a part. */
export const ZLogRequestSchema = ZPageRequest(LOG_SORT_FIELDS, {
  supplierCode: zOptionalText(32),
  materialCode: zOptionalText(40),
  standardCode: zOptionalText(64),
  /** Account or name of the user. */
  user: zOptionalText(100),
  outcome: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(['OK', 'REFUSED'], { error: '结果只能是 OK 或 REFUSED' }).optional()),
  dateFrom: zOptionalDate,
  dateTo: zOptionalDate,
}).refine(dateOrder, dateOrderError);
export type LogRequest = z.input<typeof ZLogRequestSchema>;
export const ZLogRow = z.object({
  id: z.number().int(),
  action: z.enum(Object.keys(LOG_ACTION_LABELS) as [LogAction, ...LogAction[]]),
  outcome: z.enum(['OK', 'REFUSED']),
  reason: z.string().nullable(),
  userAccount: z.string(),
  userName: z.string(),
  userType: z.number().int(),
  supplierCode: z.string().nullable(),
  supplierName: z.string().nullable(),
  fileId: z.number().int().nullable(),
  standardCode: z.string().nullable(),
  fileName: z.string().nullable(),
  version: z.string().nullable(),
  materialCode: z.string().nullable(),
  materialName: z.string().nullable(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type LogRow = z.infer<typeof ZLogRow>;
export const ZLogResponseSchema = ZCappedPage(ZLogRow);

/** Which api call lists which log (spec §7), and its page (spec §2). */
export const LOG_ENDPOINTS: Record<Exclude<LogAction, never>, { path: string; page: string }> = {
  VIEW: { path: 'haier/standardLookingup/searchStandardLookingup', page: '/esm/drawingManagement/drawingViewLog' },
  CONFIRM: { path: 'haier/standardConfirm/searchStandardConfirm', page: '/esm/drawingManagement/drawingConfirmationLog' },
  DOWNLOAD: { path: 'haier/standardDownLoad/searchStandardDownLoad', page: '/esm/drawingManagement/blueprintDownloadingLog' },
  PRINT: { path: 'haier/tablePrintLog/findPrintLogList', page: '/esm/drawingManagement/drawingPrintlog' },
  KEEPSECRET: { path: 'haier/standardKeepsecret/searchStandardKeepsecret', page: '/esm/drawingManagement/confidentialityAgreement' },
};

/** searchDrawingFileInformations/drawingExportExcel: same filters and sort as the archive list. */
export const ZExportRequestSchema = ZStandardFilePagerRequestSchema;
