/**
 * haier/standardFile/upload: a new standard file, or a new version of an existing standard code.
 * The request is multipart — the fields of ZUploadFieldsSchema, then one part `file` (the web
 * sends it last, so everything that can be refused is refused before a byte is kept). The bytes
 * are stored first (content-addressed, bounded by the size limit) and the row is written after,
 * so a refused upload never leaves a row; publishing version n+1 turns the current EFFECTIVE
 * version into HISTORY in the same transaction that creates the new one.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ZUploadFieldsSchema, type FileType, type StandardFileRow, type UploadFields } from '@esm/contracts';
import type { FieldError } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { AppError, badRequest, conflict } from '../../plugins/errors.ts';
import { FileTooLargeError, type Storage } from '../../lib/storage.ts';
import { cleanFileName, contentIs, SNIFF_BYTES, typeOfName, UNSUPPORTED_TYPE_MESSAGE } from './file-type.ts';
import { findFileRow } from './file-query.ts';
import { refuseUnstampable } from '../../lib/watermark.ts';

export interface UploadDeps {
  db: Db;
  storage: Storage;
  maxBytes: number;
}

const unsupported = () => new AppError(415, UNSUPPORTED_TYPE_MESSAGE);

/** Field-level 400 from the zod issues of the upload fields. */
function fieldErrors(
  fields: Record<string, string>,
): { ok: true; value: UploadFields } | { ok: false; errors: FieldError[] } {
  const parsed = ZUploadFieldsSchema.safeParse(fields);
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message })),
    };
  return { ok: true, value: parsed.data };
}

const invalid = (errors: FieldError[]) => badRequest(errors[0]?.message ?? '请求参数有误', errors);

/**
 * What the database says about these fields before anything is stored: the material exists, the
 * version string is new for the standard code, and a new version stays under the same material.
 */
async function checkAgainstArchive(
  db: Db | Prisma.TransactionClient,
  f: UploadFields,
): Promise<{ lastVersionNo: number }> {
  const material = await db.material.findUnique({ where: { code: f.materialCode }, select: { code: true } });
  if (!material) throw invalid([{ field: 'materialCode', message: `物料不存在：${f.materialCode}` }]);
  const versions = await db.standardFile.findMany({
    where: { standardCode: f.standardCode },
    select: { version: true, versionNo: true, materialCode: true },
    orderBy: { versionNo: 'desc' },
  });
  if (versions.some((v) => v.version === f.version)) throw conflict(`该标准编号已有版本 ${f.version}`);
  const owner = versions[0]?.materialCode;
  if (owner && owner !== f.materialCode) {
    throw invalid([
      { field: 'materialCode', message: `标准编号 ${f.standardCode} 属于物料 ${owner}，新版本须上传到同一物料下` },
    ]);
  }
  return { lastVersionNo: versions[0]?.versionNo ?? 0 };
}

/** Reads the first bytes of a stream and hands back a stream of all of it (nothing is lost). */
export async function sniff(source: Readable): Promise<{ head: Buffer; whole: Readable }> {
  const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < SNIFF_BYTES) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* all() {
    yield head;
    if (done) return;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  const whole = Readable.from(all(), { objectMode: false });
  // storage.put also reads @fastify/multipart's truncation flag
  Object.defineProperty(whole, 'truncated', { get: () => (source as { truncated?: boolean }).truncated === true });
  return { head, whole };
}

export const drain = (file: Readable) => pipeline(file, new Writable({ write: (_c, _e, cb) => cb() }));

/** @fastify/multipart's own errors, in words a user can act on. */
export function multipartError(e: unknown, maxBytes: number): unknown {
  if (e instanceof AppError) return e;
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new FileTooLargeError(maxBytes);
    case 'FST_FILES_LIMIT':
      return badRequest('一次只能上传一个文件', [{ field: 'file', message: '一次只能上传一个文件' }]);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return badRequest('上传表单的字段有误，请刷新页面后重试');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('上传未完成，连接已中断，请重新上传');
  }
  // busboy: a malformed or truncated body
  if (e instanceof Error && /multipart|boundary|Unexpected end|terminated early|Malformed/i.test(e.message)) {
    return badRequest('上传内容不完整或格式有误，请重新上传');
  }
  return e;
}

interface Stored {
  sha256: string;
  size: number;
  type: FileType;
  fileName: string;
}

/** Reads the multipart request: the fields, and the file stored once everything else is acceptable. */
async function receive(request: FastifyRequest, deps: UploadDeps): Promise<{ fields: UploadFields; stored: Stored }> {
  if (!request.isMultipart()) throw new AppError(415, '请以 multipart/form-data 方式上传文件');
  const raw: Record<string, string> = {};
  let stored: Stored | undefined;
  let refusal: AppError | undefined;
  let refusedForFields = false;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in raw)) raw[part.fieldname] = part.value;
        continue;
      }
      const file = part as MultipartFile;
      if (file.fieldname !== 'file' || stored || refusal) {
        await drain(file.file);
        if (file.fieldname !== 'file')
          refusal ??= badRequest('未知的文件字段，文件须以 file 字段上传', [
            { field: file.fieldname, message: '未知的文件字段' },
          ]);
        continue;
      }
      const fields = fieldErrors(raw);
      if (!fields.ok) {
        refusal = invalid(fields.errors);
        refusedForFields = true;
        await drain(file.file);
        continue;
      }
      try {
        await checkAgainstArchive(deps.db, fields.value);
      } catch (e) {
        refusal = e as AppError;
        await drain(file.file);
        continue;
      }
      const type = typeOfName(file.filename ?? '');
      const { head, whole } = await sniff(file.file);
      if (head.length === 0) {
        refusal = invalid([{ field: 'file', message: '文件内容为空' }]);
        continue;
      }
      if (!type || !contentIs(type, head)) {
        refusal = unsupported();
        await drain(whole);
        continue;
      }
      const { sha256, size } = await deps.storage.put(whole, deps.maxBytes);
      stored = { sha256, size, type, fileName: cleanFileName(file.filename ?? '', type) };
    }
  } catch (e) {
    throw multipartError(e, deps.maxBytes);
  }
  const fields = fieldErrors(raw);
  if (refusedForFields && fields.ok)
    throw badRequest('文件须放在表单其他字段之后提交', [{ field: 'file', message: '文件须放在表单其他字段之后提交' }]);
  if (!fields.ok) throw invalid(fields.errors);
  if (refusal) throw refusal;
  if (!stored) throw invalid([{ field: 'file', message: '请选择要上传的文件' }]);
  return { fields: fields.value, stored };
}

export async function uploadStandardFile(
  request: FastifyRequest,
  user: SessionUser,
  deps: UploadDeps,
): Promise<StandardFileRow> {
  const { fields, stored } = await receive(request, deps);
  // before it replaces the effective version: a file the viewer could not stamp would hide the good one
  await refuseUnstampable(await deps.storage.read(stored.sha256), stored.type);
  const id = await deps.db
    .$transaction(async (tx) => {
      // one publisher per standard code at a time: the version numbering and the single
      // EFFECTIVE version per code rely on it
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${fields.standardCode}))`;
      const { lastVersionNo } = await checkAgainstArchive(tx, fields);
      await tx.standardFile.updateMany({
        where: { standardCode: fields.standardCode, status: 'EFFECTIVE' },
        data: { status: 'HISTORY' },
      });
      const created = await tx.standardFile.create({
        data: {
          standardCode: fields.standardCode,
          name: fields.name,
          version: fields.version,
          versionNo: lastVersionNo + 1,
          materialCode: fields.materialCode,
          category: fields.category,
          secretLevel: fields.secretLevel,
          status: 'EFFECTIVE',
          effectiveDate: new Date(`${fields.effectiveDate}T00:00:00Z`),
          uploaderId: user.id,
          uploaderName: user.name,
          fileName: stored.fileName,
          fileSize: stored.size,
          fileType: stored.type,
          sha256: stored.sha256,
          remark: fields.remark ?? null,
        },
        select: { id: true },
      });
      return created.id;
    })
    .catch((e: unknown) => {
      if ((e as { code?: string }).code === 'P2002') throw conflict('该标准编号正在发布新版本，请稍后重试');
      throw e;
    });
  return (await findFileRow(deps.db, id))!;
}
