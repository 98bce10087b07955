/**
 * The supplier's confidentiality agreement and drawing confirmations.
 *  - A supplier user accepts the current agreement version once; a new version asks again.
 *    The acceptance and its KEEPSECRET log row commit together.
 *  - Confirming a drawing is its CONFIRM log row (one per user and file): the same checks as
 *    viewing it, and a refusal is logged as REFUSED. A batch confirms all its files or none.
 * Per-user advisory locks serialise a user's concurrent clicks so a double submit cannot write
 * two acceptances or two confirmations.
 * A file of a material the supplier does not supply answers exactly as an unknown id does
 * ("文件不存在", 404) on every call here; both refusals are logged (an unknown id
 * bounded per minute, lib/access-log.ts), the former with its real reason.
 */
import { KEEPSECRET_REQUIRED_CODE } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Prisma } from '../../generated/prisma/client.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { AppError, conflict, forbidden, notFound } from '../../plugins/errors.ts';
import { writeAccessLog, writeRefusedUnknown, type ClientInfo } from '../../lib/access-log.ts';
import {
  FILE_NOT_FOUND_TEXT,
  HiddenFileError,
  NO_AGREEMENT_TEXT,
  NO_SUPPLIER_TEXT,
  currentAgreement,
  findFile,
  isFileId,
  logReasonOf,
  snapshotOf,
  supplierFileRefusal,
  supplierSees,
} from '../files/index.ts';

type Tx = Prisma.TransactionClient;

/** pg_advisory_xact_lock(class, user id) classes of this module. */
const LOCK_KEEPSECRET = 30301;
const LOCK_CONFIRM = 30302;

async function lockUser(tx: Tx, lockClass: number, userId: number) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${lockClass}::int, ${userId}::int)`;
}

// ---- the agreement -----------------------------------------------------------------------------

export interface KeepsecretState {
  accepted: boolean;
  acceptedAt: string | null;
  agreement: { id: number; version: number; title: string; content: string };
}

async function stateOf(q: Tx, user: SessionUser): Promise<KeepsecretState> {
  const agreement = await currentAgreement(q);
  if (!agreement) throw notFound(NO_AGREEMENT_TEXT);
  const acceptance = await q.keepsecretAcceptance.findUnique({
    where: { agreementId_userId: { agreementId: agreement.id, userId: user.id } },
  });
  return {
    accepted: Boolean(acceptance),
    acceptedAt: acceptance?.acceptedAt.toISOString() ?? null,
    agreement: { id: agreement.id, version: agreement.version, title: agreement.title, content: agreement.content },
  };
}

/** hasKeepsecret: the agreement in force and whether this user accepted it. */
export function keepsecretState(db: Db, user: SessionUser): Promise<KeepsecretState> {
  return stateOf(db, user);
}

/** insertKeepsecret: accepts the current version (only it); accepting again changes nothing. */
export async function acceptAgreement(
  db: Db,
  user: SessionUser,
  agreementId: number,
  client: ClientInfo,
): Promise<{ state: KeepsecretState; already: boolean }> {
  if (!user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
  const supplierCode = user.supplierCode;
  return db.$transaction(async (tx) => {
    await lockUser(tx, LOCK_KEEPSECRET, user.id);
    const state = await stateOf(tx, user);
    if (state.agreement.id !== agreementId) {
      const named = await tx.keepsecretAgreement.findUnique({ where: { id: agreementId }, select: { id: true } });
      throw named ? conflict('保密协议已更新，请阅读新版本后再签署') : notFound('保密协议不存在，请刷新后重试');
    }
    if (state.accepted) return { state, already: true };
    const acceptance = await tx.keepsecretAcceptance.create({ data: { agreementId, userId: user.id, supplierCode } });
    await writeAccessLog(tx, { action: 'KEEPSECRET', outcome: 'OK', user, agreement: state.agreement, ...client });
    return { state: { ...state, accepted: true, acceptedAt: acceptance.acceptedAt.toISOString() }, already: false };
  });
}

// ---- confirmations -------------------------------------------------------------------------------

/** When this user confirmed the file, if ever. */
async function confirmedAt(q: Tx, userId: number, fileId: number): Promise<Date | null> {
  const row = await q.accessLog.findFirst({
    where: { action: 'CONFIRM', outcome: 'OK', userId, fileId },
    orderBy: { id: 'asc' },
    select: { createdAt: true },
  });
  return row?.createdAt ?? null;
}

export interface ConfirmState {
  confirmed: boolean;
  confirmedAt: string | null;
}

/** hasConfirmLog: whether this user confirmed the file (a file not theirs: as if it did not exist). */
export async function confirmState(db: Db, user: SessionUser, id: number): Promise<ConfirmState> {
  if (!user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
  const file = await findFile(db, id);
  if (!file || !(await supplierSees(db, user.supplierCode, file.materialCode))) throw notFound(FILE_NOT_FOUND_TEXT);
  const at = await confirmedAt(db, user.id, id);
  return { confirmed: Boolean(at), confirmedAt: at?.toISOString() ?? null };
}

/** insertConfirmLog: confirms one file the supplier may open; a second confirmation changes nothing. */
export async function confirmFile(
  db: Db,
  user: SessionUser,
  id: number,
  client: ClientInfo,
): Promise<{ state: ConfirmState; already: boolean }> {
  if (!user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
  const outcome = await db.$transaction(async (tx) => {
    await lockUser(tx, LOCK_CONFIRM, user.id);
    const file = await findFile(tx, id);
    if (!file) return { unknown: true as const };
    const log = { action: 'CONFIRM' as const, user, file: snapshotOf(file), ...client };
    const refusal = await supplierFileRefusal(tx, user, file, 'confirm');
    if (refusal) {
      await writeAccessLog(tx, { ...log, outcome: 'REFUSED', reason: logReasonOf(refusal) });
      return { refusal }; // thrown after the commit: the REFUSED row stays
    }
    const earlier = await confirmedAt(tx, user.id, id);
    if (earlier) return { at: earlier, already: true };
    const row = await writeAccessLog(tx, { ...log, outcome: 'OK' });
    return { at: row.createdAt, already: false };
  });
  if ('unknown' in outcome) {
    await writeRefusedUnknown(db, { action: 'CONFIRM', user, reason: FILE_NOT_FOUND_TEXT, ...client }, id);
    throw notFound(FILE_NOT_FOUND_TEXT);
  }
  if ('refusal' in outcome) throw outcome.refusal;
  return { state: { confirmed: true, confirmedAt: outcome.at.toISOString() }, already: outcome.already };
}

/**
 * supplierConfirm: confirms several files, all or none. The first file (in the order sent) the
 * supplier may not confirm is named in the refusal and logged as REFUSED; no confirmation is
 * written then. An unknown id and a file not theirs are both "编号为 N 的文件不存在".
 */
export async function confirmFiles(
  db: Db,
  user: SessionUser,
  ids: number[],
  client: ClientInfo,
): Promise<{ confirmed: number; alreadyConfirmed: number }> {
  if (!user.supplierCode) throw forbidden(NO_SUPPLIER_TEXT);
  const unique = [...new Set(ids)];
  const missing = (id: number) => notFound(`编号为 ${id} 的${FILE_NOT_FOUND_TEXT}`);
  const outcome = await db.$transaction(async (tx) => {
    await lockUser(tx, LOCK_CONFIRM, user.id);
    const files = await tx.standardFile.findMany({
      where: { id: { in: unique.filter(isFileId) } },
      include: { material: { select: { name: true } } },
    });
    const byId = new Map(files.map((f) => [f.id, f]));

    const now = new Date();
    for (const id of unique) {
      const file = byId.get(id);
      if (!file) return { unknown: id };
      const refusal = await supplierFileRefusal(tx, user, file, 'confirm', now);
      if (!refusal) continue;
      await writeAccessLog(tx, {
        action: 'CONFIRM',
        outcome: 'REFUSED',
        reason: logReasonOf(refusal),
        user,
        file: snapshotOf(file),
        ...client,
      });
      if (refusal instanceof HiddenFileError) return { refusal: missing(id) };
      // The agreement is not about one file: its refusal keeps its own words (and code) for the web.
      const named =
        refusal.code === KEEPSECRET_REQUIRED_CODE ? refusal.message : `编号为 ${id} 的图纸无法确认：${refusal.message}`;
      return { refusal: new AppError(refusal.statusCode, named, refusal.code) };
    }

    const earlier = await tx.accessLog.findMany({
      where: { action: 'CONFIRM', outcome: 'OK', userId: user.id, fileId: { in: unique } },
      distinct: ['fileId'],
      select: { fileId: true },
    });
    const done = new Set(earlier.map((r) => r.fileId));
    let confirmed = 0;
    for (const id of unique) {
      if (done.has(id)) continue;
      await writeAccessLog(tx, { action: 'CONFIRM', outcome: 'OK', user, file: snapshotOf(byId.get(id)!), ...client });
      confirmed++;
    }
    return { confirmed, alreadyConfirmed: done.size };
  });
  if ('unknown' in outcome && outcome.unknown !== undefined) {
    await writeRefusedUnknown(db, { action: 'CONFIRM', user, reason: FILE_NOT_FOUND_TEXT, ...client }, outcome.unknown);
    throw missing(outcome.unknown);
  }
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome;
}
