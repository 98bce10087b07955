/**
 * Drawing archives: standard files and drawings by product line → material, their versions,
 * the suppliers of a material, upload and obsolete. Call names are the legacy portal's.
 */
import { z } from 'zod';
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint, governedColumns } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { zDay, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';
import { GRANT_STATES } from './empower/index.ts';
import { PAGES } from './pages.ts';

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

const tag = 'archives';
const tagSupplier = 'archives (supplier)';

// ---- tree ------------------------------------------------------------------------------------

export const ZProductLine = z.object({ code: z.string(), name: z.string(), materialCount: z.number().int() });
export type ProductLine = z.infer<typeof ZProductLine>;
const ZProductLineResponseSchema = ZEnvelope(z.array(ZProductLine));

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
const ZMaterialPagerResponseSchema = ZCappedPage(ZMaterialRow);

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
  /** Governed (ARCHIVE_FILE_COLUMNS): absent when hidden for the caller, masked when masked. */
  uploaderName: z.string().optional(),
  createdAt: z.string(),
  obsoletedAt: z.string().nullable(),
  obsoleteReason: z.string().nullable().optional(),
  remark: z.string().nullable().optional(),
  /** Supplier lists only: whether this user has confirmed the file, and when. */
  confirmedAt: z.string().nullable().optional(),
});
export type StandardFileRow = z.infer<typeof ZStandardFileRow>;

/** The archive browser (档案信息 and its tree page): the page its buttons and columns belong to. */
export const ARCHIVE_PAGE = PAGES.dashboard.path;
/** The archive rows' governed columns: list, detail responses and the Excel export. */
export const ARCHIVE_FILE_COLUMNS = governedColumns(PAGES.dashboard, ['uploaderName', 'obsoleteReason', 'remark']);

export const FILE_SORT_FIELDS = [
  'standardCode',
  'name',
  'version',
  'effectiveDate',
  'createdAt',
  'materialCode',
] as const;
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

/** haier/standardFile/getStandardFilePager and the export: every version, by status. */
export const ZStandardFilePagerRequestSchema = withDateRange(
  ZPageRequest(FILE_SORT_FIELDS, {
    ...fileFilters,
    status: zOptionalEnum(FILE_STATUSES, '状态只能是 EFFECTIVE、HISTORY 或 OBSOLETE'),
  }),
);
export type StandardFilePagerRequest = z.input<typeof ZStandardFilePagerRequestSchema>;
const ZStandardFilePagerResponseSchema = ZCappedPage(ZStandardFileRow);

/** Versions no longer current (HISTORY, OBSOLETE); and the supplier's lists, which filter the same way. */
export const ZFileFilterRequestSchema = withDateRange(ZPageRequest(FILE_SORT_FIELDS, fileFilters));
export type FileFilterRequest = z.input<typeof ZFileFilterRequestSchema>;

/** Multipart fields of haier/standardFile/upload (the file part is named `file`). */
export const ZUploadFieldsSchema = z.object({
  standardCode: zText('标准编号', 64).pipe(z.string().regex(/^[\w\-./]+$/, '标准编号只能包含字母、数字和 - _ . /')),
  name: zText('名称', 200),
  version: zText('版本', 32),
  materialCode: zText('物料', 40, { verb: '请选择' }),
  category: z.enum(FILE_CATEGORIES, { error: '请选择类别' }),
  secretLevel: z.enum(SECRET_LEVELS, { error: '请选择保密等级' }),
  effectiveDate: zDay('生效日期'),
  remark: zOptionalText(500),
});
export type UploadFields = z.infer<typeof ZUploadFieldsSchema>;

/**
 * What 作废 withdraws: VERSION — this version; when it is the effective one, the latest
 * earlier version still in force (历史版本) becomes effective again, so suppliers keep a drawing;
 * STANDARD — every version of the standard code, which then disappears from suppliers' lists.
 */
export const OBSOLETE_SCOPE_LABELS = { VERSION: '作废此版本', STANDARD: '整个标准作废' } as const;
export type ObsoleteScope = keyof typeof OBSOLETE_SCOPE_LABELS;
export const OBSOLETE_SCOPES = Object.keys(OBSOLETE_SCOPE_LABELS) as [ObsoleteScope, ...ObsoleteScope[]];

export const ZObsoleteRequestSchema = z.object({
  id: zId('文件编号'),
  reason: zText('作废原因', 200, { verb: '请填写' }),
  scope: z.enum(OBSOLETE_SCOPES, { error: '作废范围只能是 VERSION 或 STANDARD' }).default('VERSION'),
});

// ---- suppliers ---------------------------------------------------------------------------------

export const ZSupplierRow = z.object({ code: z.string(), name: z.string(), materialCount: z.number().int() });
export const ZSupplierInformationRequestSchema = ZPageRequest(['code', 'name'], { keyword: zOptionalText(100) });

export const ZFileSupplierRow = z.object({
  supplierCode: z.string(),
  supplierName: z.string(),
  grantState: z.enum(GRANT_STATES),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  /** May this supplier open the file now (supplies the material, valid grant, file not obsolete). */
  canAccess: z.boolean(),
});
export type FileSupplierRow = z.infer<typeof ZFileSupplierRow>;

/** A request naming one standard file version. */
export const ZFileIdRequestSchema = z.object({ id: zId('文件编号') });

// ---- calls -------------------------------------------------------------------------------------

export const archivesApi = {
  productLines: endpoint({
    path: 'haier/standardFile/selectProductType',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '产品线（档案树第一层）及其物料数',
    response: ZProductLineResponseSchema,
  }),
  materials: endpoint({
    path: 'haier/standardFile/getMaterialPager',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '物料分页（档案树第二层）',
    body: ZMaterialPagerRequestSchema,
    response: ZMaterialPagerResponseSchema,
  }),
  files: endpoint({
    path: 'haier/standardFile/getStandardFilePager',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '图纸档案分页（所有版本，可按状态筛选）',
    columns: ARCHIVE_FILE_COLUMNS,
    body: ZStandardFilePagerRequestSchema,
    response: ZStandardFilePagerResponseSchema,
  }),
  history: endpoint({
    path: 'haier/standardFileHistory/getStandardFilePager',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '档案历史：历史版本与已作废版本',
    columns: ARCHIVE_FILE_COLUMNS,
    body: ZFileFilterRequestSchema,
    response: ZStandardFilePagerResponseSchema,
  }),
  suppliers: endpoint({
    path: 'haier/standardFile/getSupplierInformation',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '供应商分页（含供货物料数）',
    body: ZSupplierInformationRequestSchema,
    response: ZCappedPage(ZSupplierRow),
  }),
  fileSuppliers: endpoint({
    path: 'haier/standardFile/getStandardFileSupplier',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '文件所属物料的供应商及其授权状态',
    body: ZFileIdRequestSchema,
    response: ZEnvelope(z.array(ZFileSupplierRow)),
  }),
  upload: endpoint({
    path: 'haier/standardFile/upload',
    access: DRAWING_ADMIN_TYPES,
    tag,
    kind: 'multipart',
    button: PAGES.dashboard.buttons.upload,
    columns: ARCHIVE_FILE_COLUMNS,
    summary: '上传新文件或新版本',
    description:
      'multipart/form-data：ZUploadFieldsSchema 的各字段，最后是文件部分 file（PDF、PNG、JPG、DWG、DXF，按扩展名和文件头识别）。',
    response: ZEnvelope(ZStandardFileRow),
  }),
  obsolete: endpoint({
    path: 'haier/standardFile/obsolete',
    access: DRAWING_ADMIN_TYPES,
    tag,
    summary: '作废一个版本',
    button: PAGES.dashboard.buttons.obsolete,
    columns: ARCHIVE_FILE_COLUMNS,
    body: ZObsoleteRequestSchema,
    response: ZEnvelope(ZStandardFileRow),
  }),

  // supplier side: every call runs inside the caller's own supplier's scope
  supplierProductLines: endpoint({
    path: 'supplier/standardFile/selectProductType',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商可见物料的产品线',
    response: ZProductLineResponseSchema,
  }),
  supplierMaterials: endpoint({
    path: 'supplier/standardFile/getMaterialPager',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商可见的物料分页',
    body: ZMaterialPagerRequestSchema,
    response: ZMaterialPagerResponseSchema,
  }),
  supplierFiles: endpoint({
    path: 'supplier/standardFile/getStandardFilePager',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商可见的生效文件（含本人确认时间）',
    body: ZFileFilterRequestSchema,
    response: ZStandardFilePagerResponseSchema,
  }),
  supplierHistory: endpoint({
    path: 'supplier/supplierDrawingFileInfomation/searchByMaterialHistory',
    access: SUPPLIER_TYPES,
    tag: tagSupplier,
    summary: '本供应商可见物料的历史版本',
    body: ZFileFilterRequestSchema,
    response: ZStandardFilePagerResponseSchema,
  }),
} as const;
