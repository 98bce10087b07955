/**
 * May this user act on this file now? One answer for view, print, download and
 * confirm. A supplier user: the version is not obsolete, the supplier supplies the material and
 * holds a grant valid now (modules/empower/grants.ts), and the user accepted the current
 * confidentiality agreement. An answerer (type 5): only the versions its questions are about.
 * Each check answers with the refusal the user is shown (and that the log keeps), or null.
 * Runs on the client it is given: a confirmation's transaction, which also writes its row
 * (standardlog), or, for a file call, the database, the file and the facts read in one statement
 * (fileForCall).
 */
import { KEEPSECRET_REQUIRED_CODE } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { NO_SUPPLIER_TEXT, type SessionUser } from '../../plugins/auth.ts';
import { AppError, forbidden } from '../../plugins/errors.ts';
import type { FileSnapshot } from '../../lib/access-log.ts';
import { grantVerdict } from '../empower/index.ts';
import { ANSWERER_TYPE, answererSeesFile } from '../documentIssues/index.ts';

type Q = Prisma.TransactionClient;

export const NO_AGREEMENT_TEXT = '尚未发布保密协议';
export { NO_SUPPLIER_TEXT };
const NOT_SUPPLIER_TEXT = '贵公司不是该物料的供应商，无权查看其图纸';
const NOT_ANSWERERS_TEXT = '该图纸版本不是分派给本人或待分派的问题所涉及的图纸，无权查看';

/** The agreement in force: the highest version. */
export function currentAgreement(q: Q) {
  return q.keepsecretAgreement.findFirst({ orderBy: { version: 'desc' } });
}

/** Null when the user accepted the current agreement; else why not (403 '40301' asks the web to show it). */
export async function agreementRefusal(q: Q, user: SessionUser): Promise<AppError | null> {
  const current = await currentAgreement(q);
  if (!current) return forbidden(NO_AGREEMENT_TEXT);
  const accepted = await q.keepsecretAcceptance.findUnique({
    where: { agreementId_userId: { agreementId: current.id, userId: user.id } },
    select: { id: true },
  });
  return accepted ? null : new AppError(403, '请先阅读并签署保密协议', KEEPSECRET_REQUIRED_CODE);
}

/** What a caller is told about a file that does not exist — or, for a supplier, is not theirs. */
export const FILE_NOT_FOUND_TEXT = '文件不存在';

/**
 * A refusal a supplier sees as "does not exist" (not yours and does not exist answer
 * alike): the file belongs to a material the supplier does not supply. The log keeps the reason.
 */
export class HiddenFileError extends AppError {
  constructor(readonly reason: string) {
    super(404, FILE_NOT_FOUND_TEXT);
  }
}

/** The words a log row keeps for a refusal: the real reason, also when the caller was told less. */
export const logReasonOf = (refusal: AppError) =>
  refusal instanceof HiddenFileError ? refusal.reason : refusal.message;

/** Ids a file row can have (an int4 column): anything else cannot name a file. */
export const isFileId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

/** A file row with what the checks and the log need, or null. */
export async function findFile(q: Q, id: number) {
  if (!isFileId(id)) return null;
  return q.standardFile.findUnique({ where: { id }, include: { material: { select: { name: true } } } });
}

export type LoadedFile = NonNullable<Awaited<ReturnType<typeof findFile>>>;

export function snapshotOf(
  file: Pick<LoadedFile, 'id' | 'standardCode' | 'fileName' | 'version' | 'materialCode' | 'material'>,
): FileSnapshot {
  return {
    id: file.id,
    standardCode: file.standardCode,
    fileName: file.fileName,
    version: file.version,
    materialCode: file.materialCode,
    materialName: file.material.name,
  };
}

/** Whether the supplier supplies the file's material: if not, the file is none of its business. */
export async function supplierSees(q: Q, supplierCode: string, materialCode: string): Promise<boolean> {
  return Boolean(
    await q.supplierMaterial.findUnique({
      where: { supplierCode_materialCode: { supplierCode, materialCode } },
      select: { supplierCode: true },
    }),
  );
}

/**
 * Why a supplier user or an answerer may not open (or confirm) this file now, or null. The
 * drawing staff are never refused here. "Not a supplier of the material", and for an answerer
 * "no question of theirs is about this version", come first and answer as "does not exist"
 * (HiddenFileError), so nothing else about such a file (obsolete, bytes missing …) shows.
 * An answerer opens the very version asked about, obsolete or not: the question is about it.
 */
export async function supplierFileRefusal(
  q: Q,
  user: SessionUser,
  file: Pick<LoadedFile, 'id' | 'status' | 'materialCode'>,
  purpose: 'open' | 'confirm',
  now = new Date(),
  /** the supplier's facts on this file's material, when already read with the file (fileForCall) */
  known?: SupplierFacts | null,
): Promise<AppError | null> {
  if (user.type === ANSWERER_TYPE)
    return (await answererSeesFile(q, user.id, file.id)) ? null : new HiddenFileError(NOT_ANSWERERS_TEXT);
  if (!user.isSupplier) return null;
  if (!user.supplierCode) return forbidden(NO_SUPPLIER_TEXT);
  const facts = known ?? (await supplierFacts(q, user, file.materialCode));
  if (!facts.supplies) return new HiddenFileError(NOT_SUPPLIER_TEXT);
  if (file.status === 'OBSOLETE')
    return forbidden(purpose === 'confirm' ? '该版本已作废，不能确认' : '该版本已作废，不能查看');
  const verdict = grantVerdict(facts.grants, now);
  if (!verdict.ok) return forbidden(verdict.reason);
  if (facts.agreementId === null) return forbidden(NO_AGREEMENT_TEXT);
  return facts.accepted ? null : new AppError(403, '请先阅读并签署保密协议', KEEPSECRET_REQUIRED_CODE);
}

/** What the supplier checks read about one material: supplies it, its grants, the agreement in force, accepted. */
export interface SupplierFacts {
  supplies: boolean;
  grants: { validFrom: Date; validUntil: Date; revokedAt: Date | null; revokeReason: string | null }[];
  agreementId: number | null;
  accepted: boolean;
}

/** The facts' columns of a statement's row. */
interface FactsRow {
  supplies: boolean;
  /** JSON text: [{ validFrom, validUntil, revokedAt, revokeReason }], times as ISO UTC */
  grants: string;
  agreement_id: number | null;
  accepted: boolean;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The facts' columns for supplier `s`, user `userId` and the material `material` names (a value,
 * or a column of the row they are read with); the statement joins the agreement in force as `a`
 * (AGREEMENT_JOIN). Decided by the same rules as supplierSees, materialAccess and agreementRefusal.
 */
const factsColumns = (
  s: string,
  userId: number,
  material: Prisma.Sql,
) => Prisma.sql`EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = ${s} AND sm.material_code = ${material}) AS supplies,
  (SELECT COALESCE(json_agg(json_build_object('validFrom', to_char(g.valid_from, ${Prisma.raw(ISO)}), 'validUntil', to_char(g.valid_until, ${Prisma.raw(ISO)}),
      'revokedAt', to_char(g.revoked_at, ${Prisma.raw(ISO)}), 'revokeReason', g.revoke_reason)), '[]'::json)::text
    FROM empower_grant g WHERE g.supplier_code = ${s} AND g.material_code = ${material}) AS grants,
  a.id AS agreement_id,
  EXISTS (SELECT 1 FROM keepsecret_acceptance k WHERE k.agreement_id = a.id AND k.user_id = ${userId}) AS accepted`;

const AGREEMENT_JOIN = Prisma.raw(
  'LEFT JOIN LATERAL (SELECT id FROM keepsecret_agreement ORDER BY version DESC LIMIT 1) a ON true',
);

function factsOf(row: FactsRow): SupplierFacts {
  const grants = (
    JSON.parse(row.grants) as {
      validFrom: string;
      validUntil: string;
      revokedAt: string | null;
      revokeReason: string | null;
    }[]
  ).map((g) => ({
    validFrom: new Date(g.validFrom),
    validUntil: new Date(g.validUntil),
    revokedAt: g.revokedAt === null ? null : new Date(g.revokedAt),
    revokeReason: g.revokeReason,
  }));
  return { supplies: row.supplies, grants, agreementId: row.agreement_id, accepted: row.accepted };
}

/**
 * Everything supplierFileRefusal asks of the database for a supplier user, in one statement:
 * whether the supplier supplies the material, all its grants on it (revoked ones too, for the
 * reason), the agreement in force and whether this user accepted it.
 */
async function supplierFacts(q: Q, user: SessionUser, materialCode: string): Promise<SupplierFacts> {
  const [row] = await readRows<FactsRow>(
    q as unknown as Db,
    Prisma.sql`SELECT ${factsColumns(user.supplierCode!, user.id, Prisma.sql`${materialCode}`)}
FROM (SELECT 1) AS one ${AGREEMENT_JOIN}`,
    'esm_supplier_file_facts',
  );
  return factsOf(row!);
}

/** What a file call (view, print, download) needs of the file: the log's snapshot and how to serve it. */
export type CallFile = Pick<
  LoadedFile,
  | 'id'
  | 'standardCode'
  | 'name'
  | 'version'
  | 'materialCode'
  | 'status'
  | 'fileName'
  | 'fileSize'
  | 'fileType'
  | 'sha256'
> & { material: { name: string } };

type CallFileRow = Omit<CallFile, 'material'> & { materialName: string };

const CALL_FILE_COLUMNS =
  Prisma.raw(`f.id, f.standard_code AS "standardCode", f.name, f.version, f.material_code AS "materialCode",
  f.status, f.file_name AS "fileName", f.file_size AS "fileSize", f.file_type AS "fileType", f.sha256, m.name AS "materialName"`);

/**
 * A file call's file and, for a supplier user, its facts on the file's material — one statement,
 * read before stamping and again after it (files/service.ts): with Prisma's include and the
 * facts apart, each read was three round trips through Prisma's client. Null: no such file.
 */
export async function fileForCall(
  db: Db,
  user: SessionUser,
  id: number,
): Promise<{ file: CallFile; facts: SupplierFacts | null } | null> {
  if (!isFileId(id)) return null;
  const withFacts = user.isSupplier && user.type !== ANSWERER_TYPE && user.supplierCode;
  const rows = withFacts
    ? await readRows<CallFileRow & FactsRow>(
        db,
        Prisma.sql`SELECT ${CALL_FILE_COLUMNS}, ${factsColumns(user.supplierCode!, user.id, Prisma.raw('f.material_code'))}
FROM standard_file f JOIN material m ON m.code = f.material_code ${AGREEMENT_JOIN}
WHERE f.id = ${id}`,
        'esm_file_call_supplier',
      )
    : await readRows<CallFileRow>(
        db,
        Prisma.sql`SELECT ${CALL_FILE_COLUMNS} FROM standard_file f JOIN material m ON m.code = f.material_code WHERE f.id = ${id}`,
        'esm_file_call',
      );
  const row = rows[0];
  if (!row) return null;
  // a supplier's row also holds the fact columns (factsOf reads them): the rest is the file
  const { materialName, supplies, grants, agreement_id, accepted, ...file } = row as CallFileRow & Partial<FactsRow>;
  return {
    file: { ...file, material: { name: materialName } },
    facts: withFacts ? factsOf(row as CallFileRow & FactsRow) : null,
  };
}
