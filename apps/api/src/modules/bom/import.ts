/**
 * supplier/bomlevel/importBom: the multipart upload (field `confirm`, then the part `file`, an
 * .xlsx of at most BOM_IMPORT_MAX_BYTES) checked as a whole — every bad row answered at once,
 * per row and column, and nothing written — then, when `confirm` is true, written in one
 * transaction: each level-1 material in the file has its BOM replaced, with an IMPORT event.
 * Without `confirm` the answer says, per material, how many lines there are and how many the
 * file brings (the confirmation the page shows before replacing).
 */
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import {
  BOM_IMPORT_ERRORS_SHOWN,
  BOM_IMPORT_MAX_MB,
  ZBomImportFieldsSchema,
  type BomImportResult,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { AppError, badRequest } from '../../plugins/errors.ts';
import { readImportRows } from './excel.ts';
import { cleanFileName } from '../archives/index.ts';
import { errorField, missingHeaders, planImport, type ImportPlan, type PlannedLine } from './rules.ts';
import { lockMaterial, type Actor } from './service.ts';

const TOO_LARGE = `导入文件不能超过 ${BOM_IMPORT_MAX_MB} MB，请分批导入`;

/** The form's fields and the file's bytes (at most `maxBytes`: 413 beyond). */
async function receive(request: FastifyRequest): Promise<{ confirm: boolean; bytes: Buffer; fileName: string }> {
  if (!request.isMultipart()) throw new AppError(415, '请以 multipart/form-data 方式上传文件');
  const raw: Record<string, string> = {};
  let file: { bytes: Buffer; fileName: string } | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') raw[part.fieldname] = part.value;
        continue;
      }
      const f = part as MultipartFile;
      const bytes = await f.toBuffer();
      if (f.fieldname === 'file' && !file) file = { bytes, fileName: f.filename ?? '' };
    }
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, TOO_LARGE);
    if (code === 'FST_FILES_LIMIT')
      throw badRequest('一次只能导入一个文件', [{ field: 'file', message: '一次只能导入一个文件' }]);
    if (e instanceof AppError) throw e;
    throw badRequest('上传内容不完整或格式有误，请重新上传');
  }
  const fields = ZBomImportFieldsSchema.safeParse(raw);
  if (!fields.success)
    throw badRequest(fields.error.issues[0]!.message, [{ field: 'confirm', message: fields.error.issues[0]!.message }]);
  if (!file) throw badRequest('请选择要导入的文件', [{ field: 'file', message: '请选择要导入的文件' }]);
  if (file.bytes.length === 0)
    throw badRequest('文件内容为空，请使用下载的模板填写后导入', [{ field: 'file', message: '文件内容为空' }]);
  if (!/\.xlsx$/i.test(file.fileName))
    throw badRequest('只能导入 .xlsx 文件（请使用下载的模板）', [{ field: 'file', message: '只能导入 .xlsx 文件' }]);
  // the name as the other uploads keep it (no path, no control characters): it goes into the audit row
  return { confirm: fields.data.confirm === 'true', bytes: file.bytes, fileName: cleanFileName(file.fileName, 'xlsx') };
}

/** Checks the whole file against the supplier's materials: the plan, or a 400 listing every bad row. */
async function check(db: Db, supplierCode: string, bytes: Buffer): Promise<ImportPlan> {
  const { headers, rows } = await readImportRows(bytes);
  const missing = missingHeaders(headers);
  if (missing.length) {
    const message = `模板表头不对：缺少列 ${missing.join('、')}，请使用下载的模板`;
    throw badRequest(
      message,
      missing.map((m) => ({ field: `第 1 行 ${m}`, message: `缺少列“${m}”` })),
    );
  }
  if (!rows.length)
    throw badRequest('文件中没有数据行（从第 2 行起填写）', [{ field: 'file', message: '文件中没有数据行' }]);
  const supplied = await db.supplierMaterial.findMany({ where: { supplierCode }, select: { materialCode: true } });
  const { errors, plan } = planImport(rows, new Set(supplied.map((s) => s.materialCode)));
  if (errors.length) {
    const rowsWithErrors = new Set(errors.map((e) => e.rowNo)).size;
    const shown = errors.slice(0, BOM_IMPORT_ERRORS_SHOWN);
    const more = errors.length > shown.length ? `（仅列出前 ${shown.length} 处）` : '';
    throw badRequest(
      `导入文件有 ${rowsWithErrors} 行共 ${errors.length} 处错误，未导入任何数据${more}`,
      shown.map((e) => ({ field: errorField(e), message: e.message })),
    );
  }
  return plan;
}

async function summary(db: Db, supplierCode: string, plan: ImportPlan): Promise<BomImportResult['materials']> {
  const codes = [...plan.materials.keys()];
  const [names, counts] = await Promise.all([
    db.material.findMany({ where: { code: { in: codes } }, select: { code: true, name: true } }),
    db.bomLine.groupBy({
      by: ['materialCode'],
      where: { supplierCode, materialCode: { in: codes } },
      _count: { _all: true },
    }),
  ]);
  return codes.map((code) => ({
    code,
    name: names.find((n) => n.code === code)?.name ?? code,
    existing: counts.find((c) => c.materialCode === code)?._count._all ?? 0,
    incoming: plan.materials.get(code)!.length,
  }));
}

const CHUNK = 5_000;
type Tx = Prisma.TransactionClient;

/**
 * Inserts lines with one statement per 5,000: the columns as arrays, unnested by Postgres
 * (Prisma's createMany of 20,000 rows took a minute and ~500 MB on the server, docs/benchmarks.md).
 * Returns the new ids by component code (for level 2, whose codes are unique per material).
 */
async function insertLines(
  tx: Tx,
  supplierCode: string,
  actor: Actor,
  lines: PlannedLine[],
  parentIds: Map<string, number> | null,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (let i = 0; i < lines.length; i += CHUNK) {
    const chunk = lines.slice(i, i + CHUNK);
    const col = <T>(f: (l: PlannedLine, j: number) => T) => chunk.map(f);
    const made = await tx.$queryRaw<{ id: number; code: string }[]>`
      INSERT INTO bom_line (supplier_code, material_code, parent_id, parent_code, level, component_code, component_name, spec, quantity, unit,
        has_drawing, vendor_name, vendor_credit_code, vendor_region, vendor_contact, vendor_mobile, sort_no, updated_by)
      SELECT ${supplierCode}, m, p, pc, lv, c, n, s, q, u, d, vn, vc, vr, vt, vm, o, ${actor.name}
      FROM unnest(${col((l) => l.materialCode)}::text[], ${col((l) => (parentIds ? parentIds.get(l.parentCode)! : null))}::int[],
        ${col((l) => l.parentCode)}::text[], ${col((l) => l.level)}::smallint[], ${col((l) => l.componentCode)}::text[],
        ${col((l) => l.componentName)}::text[], ${col((l) => l.spec ?? null)}::text[], ${col((l) => String(l.quantity))}::numeric[],
        ${col((l) => l.unit)}::text[], ${col((l) => l.hasDrawing)}::boolean[], ${col((l) => l.vendorName)}::text[],
        ${col((l) => l.vendorCreditCode)}::text[], ${col((l) => l.vendorRegion ?? null)}::text[], ${col((l) => l.vendorContact ?? null)}::text[],
        ${col((l) => l.vendorMobile ?? null)}::text[], ${col((_l, j) => i + j + 1)}::int[])
        AS x(m, p, pc, lv, c, n, s, q, u, d, vn, vc, vr, vt, vm, o)
      RETURNING id, component_code AS code`;
    if (!parentIds) for (const m of made) ids.set(m.code, m.id);
  }
  return ids;
}

/** Replaces each material's BOM with the file's lines, in one transaction. */
async function apply(db: Db, supplierCode: string, actor: Actor, plan: ImportPlan, fileName: string): Promise<void> {
  await db.$transaction(
    async (tx) => {
      for (const [materialCode, lines] of plan.materials) {
        await lockMaterial(tx, supplierCode, materialCode);
        const removed = await tx.bomLine.deleteMany({ where: { supplierCode, materialCode } });
        const level2Ids = await insertLines(
          tx,
          supplierCode,
          actor,
          lines.filter((l) => l.level === 2),
          null,
        );
        await insertLines(
          tx,
          supplierCode,
          actor,
          lines.filter((l) => l.level === 3),
          level2Ids,
        );
        await tx.bomEvent.create({
          data: {
            supplierCode,
            materialCode,
            action: 'IMPORT',
            removed: removed.count,
            written: lines.length,
            detail: `导入 ${fileName}`.slice(0, 500),
            userId: actor.id,
            userAccount: actor.account,
            userName: actor.name,
          },
        });
      }
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
}

export async function importBom(
  db: Db,
  supplierCode: string,
  actor: Actor,
  request: FastifyRequest,
): Promise<BomImportResult> {
  const { confirm, bytes, fileName } = await receive(request);
  const plan = await check(db, supplierCode, bytes);
  const materials = await summary(db, supplierCode, plan);
  if (confirm) await apply(db, supplierCode, actor, plan, fileName);
  return { applied: confirm, lines: plan.lines, materials };
}
