/** Reading one countersign list: its detail with rounds, signatures and events, and what the caller may do on it. */
import {
  COUNTERSIGN_ACTION_BUTTONS,
  COUNTERSIGN_EDITABLE,
  COUNTERSIGN_TRANSITIONS,
  canMove,
  type CountersignAction,
  type CountersignDetail,
  type CountersignEventAction,
  type CountersignFile,
  type CountersignRound,
  type CountersignSigner,
  type CountersignStatus,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { notFound } from '../../plugins/errors.ts';
import { grantedActions } from '../../lib/permission-rules.ts';
import { findCountersignRow } from './query.ts';
import {
  COUNTERSIGN_NOT_FOUND,
  FILE_SELECT,
  filesInOrder,
  scopeOf,
  signersInOrder,
  type Q,
  type RoundContent,
  type Side,
} from './rules.ts';

/** The file versions, in the order given, with the sha256 the archive keeps for each. */
export async function filesOf(q: Q, ids: number[]): Promise<CountersignFile[]> {
  if (ids.length === 0) return [];
  const rows = await q.standardFile.findMany({ where: { id: { in: ids } }, select: FILE_SELECT });
  return filesInOrder(new Map(rows.map((f) => [f.id, f])), ids);
}

/** The internal signers, in order (step 1…n). */
export async function signersOf(q: Q, ids: number[]): Promise<CountersignSigner[]> {
  if (ids.length === 0) return [];
  const rows = await q.user.findMany({
    where: { id: { in: ids } },
    select: { id: true, account: true, name: true, type: true },
  });
  return signersInOrder(new Map(rows.map((u) => [u.id, u])), ids);
}

// ---- reading one list ----------------------------------------------------------------------------------

/** What the caller may do on the list now: the page shows exactly these. */
function actionsFor(
  user: SessionUser,
  c: { status: CountersignStatus; step: number; signerIds: number[]; createdById: number },
): CountersignAction[] {
  const out: CountersignAction[] = [];
  if (user.isSupplier) {
    if (c.status === 'SUPPLIER_SIGNING') out.push('sign');
  } else {
    const issuer = c.createdById === user.id;
    if (issuer && COUNTERSIGN_EDITABLE.includes(c.status)) out.push('edit');
    if (issuer && canMove(COUNTERSIGN_TRANSITIONS, 'issue', c.status)) out.push('issue');
    if (issuer && canMove(COUNTERSIGN_TRANSITIONS, 'cancel', c.status)) out.push('cancel');
    if (c.status === 'INTERNAL_SIGNING' && c.signerIds[c.step - 1] === user.id) out.push('sign');
  }
  if (c.status === 'COMPLETED') out.push('download');
  return out;
}

/** actionsFor, less (internal side) the actions whose page button the caller's type lacks: their routes refuse them. */
async function offeredActions(
  user: SessionUser,
  side: Side,
  c: Parameters<typeof actionsFor>[1],
): Promise<CountersignAction[]> {
  const actions = actionsFor(user, c);
  return side.kind === 'internal'
    ? grantedActions(side.buttons, user.type, actions, COUNTERSIGN_ACTION_BUTTONS)
    : actions;
}

/** Either Info call: for a supplier only its own issued lists (another's answers as missing). */
export async function countersignDetail(
  db: Db,
  user: SessionUser,
  id: number,
  side: Side,
  now = new Date(),
): Promise<CountersignDetail> {
  const row = await findCountersignRow(db, id, scopeOf(side), now);
  if (!row) throw notFound(COUNTERSIGN_NOT_FOUND);
  const c = await db.countersign.findUniqueOrThrow({
    where: { id },
    select: { items: true, fileIds: true, signerIds: true, createdById: true, cancelReason: true },
  });
  const [files, signers, rounds, signatures, events] = await Promise.all([
    filesOf(db, c.fileIds),
    signersOf(db, c.signerIds),
    db.countersignRound.findMany({ where: { countersignId: id }, orderBy: { round: 'asc' } }),
    db.countersignSignature.findMany({ where: { countersignId: id }, orderBy: [{ round: 'asc' }, { step: 'asc' }] }),
    side.kind === 'internal'
      ? db.countersignEvent.findMany({ where: { countersignId: id }, orderBy: { id: 'asc' } })
      : Promise.resolve([]),
  ]);
  return {
    ...row,
    items: c.items,
    files,
    signers,
    cancelReason: c.cancelReason,
    rounds: rounds.map((r): CountersignRound => {
      const content = r.content as unknown as RoundContent;
      return {
        round: r.round,
        title: content.title,
        items: content.items,
        dueDate: content.dueDate,
        noticeNumber: content.noticeNumber,
        files: content.files,
        signers: content.signers,
        contentSha256: r.contentSha256,
        issuedAt: r.issuedAt.toISOString(),
        issuedByName: r.issuedByName,
        outcome: r.outcome as CountersignRound['outcome'],
        endedAt: r.endedAt?.toISOString() ?? null,
        signatures: signatures
          .filter((s) => s.round === r.round)
          .map((s) => ({
            id: s.id,
            round: s.round,
            step: s.step,
            userAccount: s.userAccount,
            userName: s.userName,
            supplierCode: s.supplierCode,
            supplierName: s.supplierName,
            department: s.department,
            decision: s.decision as 'AGREE',
            comment: s.comment,
            contentSha256: s.contentSha256,
            ip: s.ip,
            createdAt: s.createdAt.toISOString(),
          })),
      };
    }),
    events: events.map((e) => ({
      id: e.id,
      round: e.round,
      action: e.action as CountersignEventAction,
      userAccount: e.userAccount,
      userName: e.userName,
      ip: e.ip,
      detail: e.detail,
      createdAt: e.createdAt.toISOString(),
    })),
    actions: await offeredActions(user, side, {
      status: row.status,
      step: row.step,
      signerIds: c.signerIds,
      createdById: c.createdById,
    }),
  };
}
