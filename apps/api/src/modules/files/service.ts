/**
 * Serving a file's bytes: file/view, file/print, file/download. Every PDF or image is
 * stamped for the caller (lib/watermark.ts); a DWG/DXF leaves as stored, under a name
 * that carries the stamp. Every authorised copy has its SENT row in access_log, committed in the
 * transaction that authorised it, and a delivery row when its response ends saying whether all of
 * its bytes went out (lib/access-log-delivery.ts); every refusal has its REFUSED row.
 *
 * Three steps, so that no database connection waits on the CPU work of stamping:
 *  1. check (file row, supplier access, bytes on disk): a refusal is logged and answered. A
 *     supplier is told "文件不存在" alike for an unknown id and for a file of a material it does
 *     not supply, and access is checked before the bytes, so nothing about such a file shows; an
 *     unknown id, or a body whose id is no id at all, is logged too (bounded, lib/access-log.ts);
 *  2. read and stamp the bytes, a few files at a time (stamp-queue.ts: stamping holds the whole
 *     file in memory); a file that cannot be stamped is refused, never served bare. A file that is
 *     not stamped is not read here: it streams from storage as it is sent;
 *  3. the access is checked again on the current rows (a grant revoked or a version obsoleted
 *     while stamping), and the SENT row (or the REFUSED one) is written and committed; only then
 *     do the bytes leave.
 * Each check reads the file with the caller's facts in one statement (access.ts fileForCall) and
 * each log row is one insert committed by itself, off Prisma's client: a view is five round
 * trips to Postgres (with the session's and the delivery row's) where it was eleven. The re-check
 * and the SENT row were one interactive transaction before; under read committed, with nothing
 * locked, that gave no more than two statements in a row do — a revocation committed between the
 * re-check and the insert went unseen either way — and it held the log's chain lock (the
 * audit_chain_link trigger) a round trip longer.
 */
import { FILE_TYPES, type FileType, type LogAction } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { AppError, forbidden, notFound } from '../../plugins/errors.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Storage } from '../../lib/storage.ts';
import { clientOf, insertAccessLog, writeRefusedUnknown, type ClientInfo } from '../../lib/access-log.ts';
import {
  FILE_NOT_FOUND_TEXT,
  NO_SUPPLIER_TEXT,
  fileForCall,
  logReasonOf,
  snapshotOf,
  supplierFileRefusal,
  type CallFile,
  type SupplierFacts,
} from './access.ts';
import {
  contentDisposition,
  isStampedType,
  plainFileName,
  stampFile,
  stampedFileName,
  watermarkText,
  type WatermarkStamp,
} from '../../lib/watermark.ts';
import { newCopyCode } from '../../lib/copy-code.ts';
import { whenStampSlotFree } from '../../lib/stamp-queue.ts';
import type { DeliveryBody } from '../../lib/access-log-delivery.ts';

export type FileAction = Extract<LogAction, 'VIEW' | 'PRINT' | 'DOWNLOAD'>;

export interface ServedFile {
  body: DeliveryBody;
  /** The SENT row its delivery is recorded against. */
  logId: number;
  contentType: string;
  contentDisposition: string;
}

const MISSING_TEXT = '文件不存在或已被移除，请联系管理员';
const NOT_VIEWABLE_TEXT = 'DWG/DXF 文件不支持在线预览，请下载后查看';

/** Why this user may not take this action on this file now, or null (checked again after stamping). */
async function refusalOf(
  db: Db,
  user: SessionUser,
  { file, facts }: { file: CallFile; facts: SupplierFacts | null },
  action: FileAction,
  now: Date,
): Promise<AppError | null> {
  const refusal = await supplierFileRefusal(db, user, file, 'open', now, facts);
  if (refusal) return refusal;
  if (action !== 'DOWNLOAD' && !FILE_TYPES[file.fileType as FileType].viewable)
    return new AppError(415, NOT_VIEWABLE_TEXT);
  return null;
}

export async function serveFile(
  deps: { db: Db; storage: Storage },
  user: SessionUser,
  id: number,
  action: FileAction,
  client: ClientInfo,
): Promise<ServedFile> {
  const { db, storage } = deps;
  const now = new Date();
  // a supplier account without a supplier is refused whatever the id (before the id tells anything)
  if (user.isSupplier && !user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
  const read = await fileForCall(db, user, id);
  if (!read) {
    await writeRefusedUnknown(db, { action, user, reason: FILE_NOT_FOUND_TEXT, ...client }, id);
    throw notFound(FILE_NOT_FOUND_TEXT);
  }
  const { file } = read;
  const log = { action, user, file: snapshotOf(file), ...client };

  const refuse = async (refusal: AppError): Promise<never> => {
    await insertAccessLog(db, { ...log, outcome: 'REFUSED', reason: logReasonOf(refusal) });
    throw refusal;
  };

  // 1. check: who may, then whether the bytes are there
  const early = await refusalOf(db, user, read, action, now);
  if (early) await refuse(early);
  if (!(await storage.exists(file.sha256))) await refuse(new AppError(404, MISSING_TEXT));

  // 2. stamp (or open the stored bytes as a stream)
  const type = file.fileType as FileType;
  // a code of its own for this copy, stamped on it and stored on its SENT row
  const copyCode = newCopyCode();
  const stamp: WatermarkStamp = {
    supplierName: user.isSupplier ? user.supplierName : null,
    account: user.account,
    at: now,
    ip: client.ip,
    copyCode,
  };
  let body: DeliveryBody;
  try {
    body = isStampedType(type)
      ? {
          bytes: await whenStampSlotFree(async () =>
            stampFile(await storage.read(file.sha256), type, watermarkText(stamp), copyCode),
          ),
        }
      : { stream: await storage.stream(file.sha256), size: file.fileSize };
  } catch (e) {
    if (e instanceof AppError) return refuse(e); // missing meanwhile, or unstampable
    throw e;
  }

  // 3. authorise on the current rows, and log
  let late: AppError | null;
  let logId: number;
  try {
    const current = await fileForCall(db, user, id);
    late = current ? await refusalOf(db, user, current, action, now) : notFound(FILE_NOT_FOUND_TEXT);
    const row = await insertAccessLog(
      db,
      late ? { ...log, outcome: 'REFUSED', reason: logReasonOf(late) } : { ...log, outcome: 'SENT', copyCode },
    );
    logId = row.id;
  } catch (e) {
    if ('stream' in body) body.stream.destroy();
    throw e;
  }
  if (late) {
    if ('stream' in body) body.stream.destroy();
    throw late;
  }

  const ext = type;
  const name =
    action === 'DOWNLOAD'
      ? stampedFileName(file.name, file.version, ext, stamp)
      : plainFileName(file.name, file.version, ext);
  return {
    body,
    logId,
    contentType: FILE_TYPES[type].mime,
    contentDisposition: contentDisposition(action === 'DOWNLOAD' ? 'attachment' : 'inline', name),
  };
}

/** The file call a route path names. */
const ACTION_OF_PATH: Record<string, FileAction> = { view: 'VIEW', print: 'PRINT', download: 'DOWNLOAD' };

/**
 * An onError hook for the file routes (files/routes.ts): a signed-in caller whose body names no
 * file at all — `{ id: "../../etc/passwd" }`, a missing or non-numeric id — is refused by the
 * schema before the handler runs; that refusal is logged like an unknown id (bounded).
 */
export function logMalformedFileCalls(db: Db) {
  return async (request: FastifyRequest, _reply: FastifyReply, error: unknown) => {
    if (!request.user || !(error as { validation?: unknown }).validation) return;
    const action = ACTION_OF_PATH[request.routeOptions.url?.split('/').at(-1) ?? ''];
    if (!action) return;
    const body = request.body as { id?: unknown } | null | undefined;
    const requested = body && typeof body === 'object' && 'id' in body ? body.id : body;
    try {
      await writeRefusedUnknown(
        db,
        { action, user: request.user, reason: '请求参数有误', ...clientOf(request) },
        requested,
      );
    } catch (err) {
      request.log.warn({ err }, 'refused file call not logged');
    }
  };
}
