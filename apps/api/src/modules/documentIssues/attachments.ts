/**
 * Question attachments, stored like archive files: the bytes content-addressed in the
 * file store (lib/storage.ts), never in the database; the row says who uploaded what. An upload
 * is one multipart part `file`, recognised by extension AND first bytes (archives/file-type.ts
 * for drawings and images, the Office signatures here), bounded by ATTACHMENT_MAX_BYTES. It is
 * then unbound (issue null) and owned by its uploader until a question, a reply or a follow-up
 * names it (`bindAttachments`, in that move's transaction).
 *
 * Who may download: a supplier the attachments of its own supplier's questions (or its own
 * unbound uploads); an answerer those of submitted questions (or its own uploads). Anything else
 * answers as missing. Every download is stamped and logged like an archive file's (downloadAttachment).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES_TEXT,
  FILE_TYPES,
  type AttachmentRow,
  type FileType,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { AppError, badRequest, notFound } from '../../plugins/errors.ts';
import type { Storage } from '../../lib/storage.ts';
import { whenStampSlotFree } from '../../lib/stamp-queue.ts';
import {
  contentDisposition,
  isStampedType,
  refuseUnstampable,
  stampFile,
  stampedFileName,
  watermarkText,
  type WatermarkStamp,
} from '../../lib/watermark.ts';
import { writeAccessLog, writeRefusedUnknown, type ClientInfo } from '../../lib/access-log.ts';
import { sendDelivery } from '../../lib/access-log-delivery.ts';
import { cleanFileName, contentIs, SNIFF_BYTES, typeOfName, drain, multipartError, sniff } from '../archives/index.ts';

type Tx = Prisma.TransactionClient;

export const ATTACHMENT_NOT_FOUND = '附件不存在';
/** What an attachment's download row says in its version column (the question's number is its code). */
export const ATTACHMENT_LOG_VERSION = '问题附件';
const UNSUPPORTED = `附件类型不支持，仅支持 ${ATTACHMENT_TYPES_TEXT}`;

const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OFFICE: Record<string, { signature: Buffer; mime: string }> = {
  doc: { signature: OLE, mime: 'application/msword' },
  xls: { signature: OLE, mime: 'application/vnd.ms-excel' },
  ppt: { signature: OLE, mime: 'application/vnd.ms-powerpoint' },
  docx: { signature: ZIP, mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { signature: ZIP, mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: { signature: ZIP, mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' },
};
const DRAWING_MIME: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  dwg: 'image/vnd.dwg',
  dxf: 'image/vnd.dxf',
};

/** The stored type of a file name (jpeg → jpg), or null when not accepted. */
function attachmentType(fileName: string): string | null {
  const drawing = typeOfName(fileName);
  if (drawing) return drawing;
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return fileName.includes('.') && ext in OFFICE ? ext : null;
}

function contentMatches(type: string, head: Buffer): boolean {
  const office = OFFICE[type];
  if (office) return head.subarray(0, office.signature.length).equals(office.signature);
  return contentIs(type as Parameters<typeof contentIs>[0], head);
}

export const mimeOf = (type: string) => OFFICE[type]?.mime ?? DRAWING_MIME[type] ?? 'application/octet-stream';

const attachmentSelect = {
  id: true,
  fileName: true,
  fileSize: true,
  fileType: true,
  uploadedByName: true,
  supplierCode: true,
  messageId: true,
  createdAt: true,
} as const;
type AttachmentRecord = {
  id: number;
  fileName: string;
  fileSize: number;
  fileType: string;
  uploadedByName: string;
  supplierCode: string | null;
  messageId: number | null;
  createdAt: Date;
};
export const toAttachmentRow = ({ supplierCode, ...a }: AttachmentRecord): AttachmentRow => ({
  ...a,
  byStaff: supplierCode === null,
  createdAt: a.createdAt.toISOString(),
});

/** Receives one attachment (multipart part `file`), stores its bytes and writes its row, unbound. */
export async function uploadAttachment(
  request: FastifyRequest,
  user: SessionUser,
  deps: { db: Db; storage: Storage },
): Promise<AttachmentRow> {
  if (!request.isMultipart()) throw new AppError(415, '请以 multipart/form-data 方式上传文件');
  const max = ATTACHMENT_MAX_BYTES;
  let stored: { sha256: string; size: number; type: string; fileName: string } | undefined;
  let refusal: AppError | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') continue;
      const file = part as MultipartFile;
      if (file.fieldname !== 'file' || stored || refusal) {
        await drain(file.file);
        if (file.fieldname !== 'file')
          refusal ??= badRequest('未知的文件字段，文件须以 file 字段上传', [
            { field: file.fieldname, message: '未知的文件字段' },
          ]);
        continue;
      }
      const type = attachmentType(file.filename ?? '');
      const { head, whole } = await sniff(file.file);
      if (head.length === 0) {
        refusal = badRequest('文件内容为空', [{ field: 'file', message: '文件内容为空' }]);
        continue;
      }
      if (!type || !contentMatches(type, head.subarray(0, Math.max(SNIFF_BYTES, head.length)))) {
        refusal = new AppError(415, type ? `文件内容与扩展名 .${type} 不符，请确认文件未损坏` : UNSUPPORTED);
        await drain(whole);
        continue;
      }
      const { sha256, size } = await deps.storage.put(whole, max);
      stored = { sha256, size, type, fileName: cleanFileName(file.filename ?? '', type) };
    }
  } catch (e) {
    throw multipartError(e, max);
  }
  if (refusal) throw refusal;
  if (!stored) throw badRequest('请选择要上传的文件', [{ field: 'file', message: '请选择要上传的文件' }]);
  // an attachment is stamped for whoever downloads it: one that could not be is refused now
  await refuseUnstampable(await deps.storage.read(stored.sha256), stored.type);
  const row = await deps.db.documentIssueAttachment.create({
    data: {
      fileName: stored.fileName,
      fileSize: stored.size,
      fileType: stored.type,
      sha256: stored.sha256,
      uploadedById: user.id,
      uploadedByName: user.isSupplier ? user.nick : user.name,
      supplierCode: user.supplierCode,
    },
    select: attachmentSelect,
  });
  return toAttachmentRow(row);
}

/**
 * Binds the caller's own unbound uploads to a question (message null: the question's own) or to
 * a thread message, inside the move's transaction. An id that is not such an upload refuses the
 * whole move (400), so nothing is half-written.
 */
export async function bindAttachments(
  tx: Tx,
  user: SessionUser,
  ids: readonly number[],
  issueId: number,
  messageId: number | null,
): Promise<void> {
  if (ids.length === 0) return;
  const { count } = await tx.documentIssueAttachment.updateMany({
    where: { id: { in: [...ids] }, uploadedById: user.id, issueId: null },
    data: { issueId, messageId },
  });
  if (count !== ids.length)
    throw badRequest('附件不存在或已被使用，请重新上传', [
      { field: 'attachmentIds', message: '附件不存在或已被使用，请重新上传' },
    ]);
}

/** A draft's own attachments become exactly `ids`: kept, newly bound, or removed (the bytes are swept once nothing names them). */
export async function setQuestionAttachments(
  tx: Tx,
  user: SessionUser,
  issueId: number,
  ids: readonly number[],
): Promise<void> {
  await tx.documentIssueAttachment.deleteMany({ where: { issueId, messageId: null, id: { notIn: [...ids] } } });
  const kept = await tx.documentIssueAttachment.findMany({ where: { issueId, messageId: null }, select: { id: true } });
  const keptIds = new Set(kept.map((a) => a.id));
  await bindAttachments(
    tx,
    user,
    ids.filter((id) => !keptIds.has(id)),
    issueId,
    null,
  );
}

export async function issueAttachments(db: Db | Tx, issueId: number): Promise<AttachmentRow[]> {
  const rows = await db.documentIssueAttachment.findMany({
    where: { issueId },
    select: attachmentSelect,
    orderBy: { id: 'asc' },
  });
  return rows.map(toAttachmentRow);
}

/** The attachment's bytes for this caller, or 404 alike for "not yours" and "does not exist". */
/** May `user` download attachment `a` (its question's supplier and status as they are now)? */
function mayDownload(
  user: SessionUser,
  a: { uploadedById: number; issue: { supplierCode: string; status: string } | null } | null,
): boolean {
  if (!a) return false;
  if (a.uploadedById === user.id) return true;
  if (!a.issue) return false;
  return user.isSupplier ? a.issue.supplierCode === user.supplierCode : a.issue.status !== 'DRAFT';
}

const loadAttachment = (q: Pick<Db, 'documentIssueAttachment'>, id: number) =>
  q.documentIssueAttachment.findUnique({
    where: { id },
    include: { issue: { select: { supplierCode: true, status: true, number: true } } },
  });

/**
 * The caller's copy of an attachment, as an archive download is served (files/service.ts): a PDF
 * or image is stamped with the caller's watermark, other types go as stored with the stamp in
 * their name, and the access log's DOWNLOAD row — the question's number, the attachment's name,
 * 问题附件 — commits (SENT) before the bytes leave, its delivery row when they have (lib/access-log-delivery.ts). A refusal is logged too: an attachment that is not
 * the caller's answers as missing, with a REFUSED row alike for "not yours" and "no such id"
 * (bounded per user, lib/access-log.ts); a file that cannot be stamped is refused, never served bare.
 */
export async function downloadAttachment(
  deps: { db: Db; storage: Storage },
  user: SessionUser,
  id: number,
  client: ClientInfo,
  now = new Date(),
) {
  const { db, storage } = deps;
  const a = await loadAttachment(db, id);
  if (!a || !mayDownload(user, a)) {
    await writeRefusedUnknown(db, { action: 'DOWNLOAD', user, reason: ATTACHMENT_NOT_FOUND, ...client }, id);
    throw notFound(ATTACHMENT_NOT_FOUND);
  }
  const document = { code: a.issue?.number ?? '未提交的附件', fileName: a.fileName, version: ATTACHMENT_LOG_VERSION };
  const log = { action: 'DOWNLOAD' as const, user, document, ...client };
  const stamp: WatermarkStamp = {
    supplierName: user.isSupplier ? user.supplierName : null,
    account: user.account,
    at: now,
    ip: client.ip,
  };
  let bytes: Uint8Array;
  try {
    const stored = await storage.read(a.sha256);
    // a drawing type goes through stampFile as an archive file does (which stamps PDFs and images
    // and leaves DWG/DXF as they are); an Office file goes as stored
    bytes =
      a.fileType in FILE_TYPES && isStampedType(a.fileType as FileType)
        ? await whenStampSlotFree(() => stampFile(stored, a.fileType as FileType, watermarkText(stamp)))
        : stored;
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    await writeAccessLog(db, { ...log, outcome: 'REFUSED', reason: e.message });
    throw e;
  }
  // the question may have gone meanwhile (a draft deleted): checked again with the row written
  // SENT: its delivery row follows when the response ends (lib/access-log-delivery.ts)
  const { allowed, logId } = await db.$transaction(async (tx) => {
    const ok = mayDownload(user, await loadAttachment(tx, id));
    const row = await writeAccessLog(
      tx,
      ok ? { ...log, outcome: 'SENT' } : { ...log, outcome: 'REFUSED', reason: ATTACHMENT_NOT_FOUND },
    );
    return { allowed: ok, logId: row.id };
  });
  if (!allowed) throw notFound(ATTACHMENT_NOT_FOUND);
  const dot = a.fileName.lastIndexOf('.');
  const name = stampedFileName(
    dot > 0 ? a.fileName.slice(0, dot) : a.fileName,
    ATTACHMENT_LOG_VERSION,
    a.fileType,
    stamp,
  );
  return { bytes, logId, contentType: mimeOf(a.fileType), contentDisposition: contentDisposition('attachment', name) };
}

/** An attachment's bytes with its headers; its delivery row follows when the response ends. */
export function sendAttachment(db: Db, reply: FastifyReply, a: Awaited<ReturnType<typeof downloadAttachment>>) {
  reply
    .header('Content-Type', a.contentType)
    .header('Content-Disposition', a.contentDisposition)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
  return sendDelivery(db, reply, a.logId, { bytes: a.bytes });
}
