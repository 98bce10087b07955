/**
 * 泄露追溯: a copy found outside the company → the access_log row of the copy it came from, by the
 * copy code stamped on it (typed off a photo or a print) or read from a PDF's metadata.
 */
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { TRACE_FILE_MAX_BYTES, type CopyTrace } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { AppError, badRequest, notFound } from '../../plugins/errors.ts';
import { COPY_CODE_KEYWORD, normalizeCopyCode } from '../../lib/copy-code.ts';

const NO_SUCH_CODE = '未找到该复制码对应的记录：请核对水印上的复制码（10 位字母和数字）';

/** The row of a code as stored; null when none has it. */
async function rowOf(db: Db, code: string, foundIn: CopyTrace['foundIn']): Promise<CopyTrace | null> {
  const r = await db.accessLog.findUnique({
    where: { copyCode: code },
    include: { delivery: { select: { complete: true } } },
  });
  if (!r) return null;
  return {
    copyCode: code,
    logId: r.id,
    action: r.action,
    outcome: r.outcome,
    userAccount: r.userAccount,
    userName: r.userName,
    userType: r.userType,
    supplierCode: r.supplierCode,
    supplierName: r.supplierName,
    standardCode: r.standardCode,
    fileName: r.fileName,
    version: r.version,
    materialCode: r.materialCode,
    materialName: r.materialName,
    createdAt: r.createdAt.toISOString(),
    ip: r.ip,
    userAgent: r.userAgent,
    delivered: r.delivery ? (r.delivery.complete ? 'COMPLETE' : 'INCOMPLETE') : 'UNKNOWN',
    chainSeq: r.chainSeq,
    rowHash: r.rowHash,
    foundIn,
  };
}

export async function traceCode(db: Db, typed: string): Promise<CopyTrace> {
  const code = normalizeCopyCode(typed);
  if (!code)
    throw badRequest('复制码应为 10 位字母和数字（如 AB3DE-7GH9K）', [
      { field: 'code', message: '复制码应为 10 位字母和数字（如 AB3DE-7GH9K）' },
    ]);
  const row = await rowOf(db, code, 'CODE');
  if (!row) throw notFound(NO_SUCH_CODE);
  return row;
}

const fileError = (message: string) => badRequest(message, [{ field: 'file', message }]);

/** The uploaded PDF's copy code (its metadata keyword) → the row. */
export async function traceFile(db: Db, request: FastifyRequest): Promise<CopyTrace> {
  if (!request.isMultipart()) throw new AppError(415, '请以 multipart/form-data 方式上传文件');
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const f = part as MultipartFile;
      const b = await f.toBuffer();
      if (f.fieldname === 'file' && !bytes) bytes = b;
    }
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new AppError(413, `文件不能超过 ${TRACE_FILE_MAX_BYTES / 1024 / 1024} MB`);
    throw fileError('上传内容不完整或格式有误，请重新上传');
  }
  if (!bytes?.length) throw fileError('请选择在外部发现的 PDF 文件');
  if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
    throw fileError('只能上传 PDF 文件；图片或照片请输入水印上的复制码');
  const { PDFDocument } = await import('pdf-lib');
  let keywords: string | undefined;
  try {
    const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
    keywords = doc.getKeywords();
  } catch {
    throw fileError('无法读取该 PDF（文件已损坏）：请输入水印上的复制码');
  }
  const found = keywords
    ?.split(/\s+/)
    .find((k) => k.startsWith(COPY_CODE_KEYWORD))
    ?.slice(COPY_CODE_KEYWORD.length);
  const code = found ? normalizeCopyCode(found) : null;
  if (!code) throw fileError('该 PDF 中没有本门户的复制码（元数据可能已被去除）：请输入水印上的复制码');
  const row = await rowOf(db, code, 'PDF');
  if (!row) throw notFound(NO_SUCH_CODE);
  return row;
}
