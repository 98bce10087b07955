/**
 * file/view, file/print, file/download: the only ways to a stored file's bytes — the caller's
 * stamped copy, each served or refused call written to the access log.
 */
import { DRAWING_ADMIN_TYPES, SUPPLIER_TYPES } from './codes.ts';
import { endpoint } from './endpoint.ts';
import { ZFileIdRequestSchema } from './archives.ts';

/** Type 5 too: the drawing a question is about opens in the viewer on the answerers' page. */
const access = [...SUPPLIER_TYPES, ...DRAWING_ADMIN_TYPES, 5] as const;
const tag = 'files';

export const filesApi = {
  view: endpoint({
    path: 'file/view',
    access,
    tag,
    kind: 'bytes',
    summary: '查看文件（带本人水印，inline；DWG/DXF 不支持）',
    body: ZFileIdRequestSchema,
  }),
  print: endpoint({
    path: 'file/print',
    access,
    tag,
    kind: 'bytes',
    summary: '打印文件（带本人水印，inline；DWG/DXF 不支持）',
    body: ZFileIdRequestSchema,
  }),
  download: endpoint({
    path: 'file/download',
    access,
    tag,
    kind: 'bytes',
    summary: '下载文件（带本人水印；DWG/DXF 原样，文件名带水印信息）',
    body: ZFileIdRequestSchema,
  }),
} as const;
export type FileAction = 'VIEW' | 'PRINT' | 'DOWNLOAD';
export const FILE_ACTION_ENDPOINTS = {
  VIEW: filesApi.view,
  PRINT: filesApi.print,
  DOWNLOAD: filesApi.download,
} as const;
