/**
 * Serving a file's bytes (issue 3): file/view, file/print, file/download. Every copy is stamped
 * for the caller (lib/watermark.ts) and every served copy has its OK row in access_log,
 * committed in the transaction that authorised it; every refusal has its REFUSED row.
 *
 * Three steps, so that no database connection waits on the CPU work of stamping:
 *  1. check (file row, bytes on disk, supplier access): a refusal is logged and answered;
 *  2. read and stamp the bytes (a file that cannot be stamped is refused, never served bare);
 *  3. one transaction re-checks the access on the current rows (a grant revoked or a version
 *     obsoleted meanwhile) and writes the OK row; only after it commits do the bytes leave.
 */
import { FILE_TYPES, type FileType, type LogAction } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { AppError } from '../../plugins/errors.ts';
import type { Storage } from '../../lib/storage.ts';
import { writeAccessLog, type ClientInfo } from '../../lib/accessLog.ts';
import { loadFile, snapshotOf, supplierFileRefusal, type LoadedFile } from '../../lib/fileAccess.ts';
import { contentDisposition, plainFileName, stampFile, stampedFileName, watermarkText, type WatermarkStamp } from '../../lib/watermark.ts';

export type FileAction = Extract<LogAction, 'VIEW' | 'PRINT' | 'DOWNLOAD'>;

export interface ServedFile {
  bytes: Uint8Array;
  contentType: string;
  contentDisposition: string;
}

const MISSING_TEXT = '文件不存在或已被移除，请联系管理员';
const NOT_VIEWABLE_TEXT = 'DWG/DXF 文件不支持在线预览，请下载后查看';

/** Why this user may not take this action on this file now, or null (re-run inside the log transaction). */
async function refusalOf(q: Parameters<typeof supplierFileRefusal>[0], user: SessionUser, file: LoadedFile, action: FileAction, now: Date): Promise<AppError | null> {
  const refusal = await supplierFileRefusal(q, user, file, 'open', now);
  if (refusal) return refusal;
  if (action !== 'DOWNLOAD' && !FILE_TYPES[file.fileType as FileType].viewable) return new AppError(415, NOT_VIEWABLE_TEXT);
  return null;
}

export async function serveFile(deps: { db: Db; storage: Storage }, user: SessionUser, id: number, action: FileAction, client: ClientInfo): Promise<ServedFile> {
  const { db, storage } = deps;
  const now = new Date();
  const file = await loadFile(db, id); // unknown id: 404 without a log row (nothing to name)
  const log = { action, user, file: snapshotOf(file), ...client };

  const refuse = async (refusal: AppError): Promise<never> => {
    await writeAccessLog(db, { ...log, outcome: 'REFUSED', reason: refusal.message });
    throw refusal;
  };

  // 1. check
  if (!(await storage.exists(file.sha256))) await refuse(new AppError(404, MISSING_TEXT));
  const early = await refusalOf(db, user, file, action, now);
  if (early) await refuse(early);

  // 2. stamp
  const type = file.fileType as FileType;
  const stamp: WatermarkStamp = { supplierName: user.isSupplier ? user.supplierName : null, account: user.account, at: now, ip: client.ip };
  let bytes: Uint8Array;
  try {
    bytes = await stampFile(await storage.read(file.sha256), type, watermarkText(stamp));
  } catch (e) {
    if (e instanceof AppError) return refuse(e); // missing meanwhile, or unstampable
    throw e;
  }

  // 3. authorise and log in one transaction
  const late = await db.$transaction(async (tx) => {
    const current = await loadFile(tx, id);
    const refusal = await refusalOf(tx, user, current, action, now);
    await writeAccessLog(tx, refusal ? { ...log, outcome: 'REFUSED', reason: refusal.message } : { ...log, outcome: 'OK' });
    return refusal;
  });
  if (late) throw late;

  const ext = type;
  const name = action === 'DOWNLOAD' ? stampedFileName(file.name, file.version, ext, stamp) : plainFileName(file.name, file.version, ext);
  return {
    bytes,
    contentType: FILE_TYPES[type].mime,
    contentDisposition: contentDisposition(action === 'DOWNLOAD' ? 'attachment' : 'inline', name),
  };
}
