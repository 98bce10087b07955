/**
 * Countersign lists: drafts, and the moves of the transition table in contracts
 * (COUNTERSIGN_TRANSITIONS) — issue, sign (supplier, then each internal signer in order), return,
 * complete, cancel.
 *
 * Each move is `UPDATE countersign … WHERE id = ? AND status = <from> AND round = <seen> AND
 * step = <seen>` in the transaction that writes its signature and CountersignEvent rows: of two
 * concurrent submits of one step, one changes the row, the other waits on its lock, then finds it
 * moved (0 rows) and answers 409. Reads before the move only give the better message.
 *
 * Each issue freezes the round's content (title, items, due date, notice, the file versions with
 * their sha256, the signers) in CountersignRound with its sha256: what every signature of the
 * round signed. Editing a returned list changes the next round's content only.
 */
import { COUNTERSIGN_TRANSITIONS, type CountersignMove, type CountersignStatus } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { cstDay } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { conflict, forbidden, notFound } from '../../plugins/errors.ts';
import type { ClientInfo } from '../../lib/access-log.ts';
import { lockRecord } from '../../db/workflow-lock.ts';
import { countersignCompleted, countersignReturned, countersignWaiting } from '../notifications/index.ts';
import {
  COUNTERSIGN_NOT_FOUND,
  cancelColumns,
  checkDraft,
  checkEditable,
  countersignNumber,
  createDetail,
  displayName,
  draftData,
  draftErrors,
  draftFacts,
  issueColumns,
  issueDetail,
  moveTo,
  refusalOf,
  roundOf,
  roundOutcome,
  signatureData,
  signColumns,
  signEvents,
  signMove,
  throwNotIssuable,
  updateDetail,
  writeEvent,
  type Draft,
  type MoveColumns,
  type Side,
  type SignState,
  type Submit,
  type Tx,
} from './rules.ts';

const ONLY_ISSUER = '只有发起人可以编辑、下发或取消该会签单';

// ---- drafts ------------------------------------------------------------------------------------------

export async function createDraft(
  db: Db,
  user: SessionUser,
  d: Draft,
  client: ClientInfo,
  now = new Date(),
): Promise<number> {
  return db.$transaction(async (tx) => {
    await checkDraft(tx, d, now);
    const created = await tx.countersign.create({
      data: {
        ...draftData(d),
        number: `tmp-${now.getTime()}`.slice(0, 20),
        status: 'DRAFT',
        createdById: user.id,
        createdByName: user.name,
        createdAt: now,
        updatedAt: now,
      },
      select: { id: true },
    });
    const number = countersignNumber(created.id, now);
    await tx.countersign.update({ where: { id: created.id }, data: { number } });
    await writeEvent(tx, {
      id: created.id,
      round: 0,
      action: 'CREATE',
      user,
      client,
      at: now,
      detail: createDetail(number, d),
    });
    return created.id;
  });
}

/**
 * The list as the issuer acts on it, locked first (db/workflow-lock.ts: an issue freezes what an
 * edit in flight committed); 404 when missing, 403 when the caller did not issue it.
 */
async function issuerRow(tx: Tx, user: SessionUser, id: number) {
  await lockRecord(tx, 'countersign', id);
  const c = await tx.countersign.findUnique({ where: { id } });
  if (!c) throw notFound(COUNTERSIGN_NOT_FOUND);
  if (c.createdById !== user.id) throw forbidden(ONLY_ISSUER);
  return c;
}

export async function updateDraft(
  db: Db,
  user: SessionUser,
  id: number,
  d: Draft,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    checkEditable(status);
    await checkDraft(tx, d, now);
    // the edit is a guarded write too: a list issued meanwhile is not edited
    const { count } = await tx.countersign.updateMany({
      where: { id, status: c.status, round: c.round },
      data: { ...draftData(d), updatedAt: now },
    });
    if (count === 0) throw conflict('会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, {
      id,
      round: c.round,
      action: 'UPDATE',
      user,
      client,
      at: now,
      detail: updateDetail(status, c.round),
    });
  });
}

const MOVE_COLUMN_SQL: Record<keyof MoveColumns, string> = {
  round: 'round',
  step: 'step',
  issuedAt: 'issued_at',
  completedAt: 'completed_at',
  cancelledAt: 'cancelled_at',
  cancelReason: 'cancel_reason',
  updatedAt: 'updated_at',
};

/**
 * `UPDATE countersign SET status = <to of move>, <set> WHERE id = ? AND status = <seen> AND round
 * = <seen> AND step = <seen>`: whether this transaction made the move. The seen status must be one
 * the move may leave (checked first: that refusal names the move).
 */
async function move(
  tx: Tx,
  id: number,
  m: CountersignMove,
  seen: { status: CountersignStatus; round: number; step: number },
  set: MoveColumns,
): Promise<boolean> {
  const to = moveTo(m, seen.status);
  const columns = Prisma.join(
    (Object.keys(set) as (keyof MoveColumns)[]).map((k) => Prisma.sql`${Prisma.raw(MOVE_COLUMN_SQL[k])} = ${set[k]}`),
    ', ',
  );
  const moved = await tx.$executeRaw`UPDATE countersign SET status = ${to}, ${columns}
    WHERE id = ${id} AND status = ${seen.status} AND round = ${seen.round} AND step = ${seen.step}`;
  return moved === 1;
}

export async function issueCountersign(
  db: Db,
  user: SessionUser,
  id: number,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const status = c.status as CountersignStatus;
    moveTo('issue', status);
    const dueDate = cstDay(c.dueDate);
    const draft: Draft = {
      title: c.title,
      supplierCode: c.supplierCode,
      noticeId: c.noticeId ?? undefined,
      items: c.items,
      dueDate,
      fileIds: c.fileIds,
      signerIds: c.signerIds,
    };
    const facts = await draftFacts(tx, [draft]);
    throwNotIssuable(draftErrors(draft, now, facts));
    const set = issueColumns(c, now);
    if (!(await move(tx, id, 'issue', { status, round: c.round, step: c.step }, set)))
      throw conflict('该会签单已下发，不能重复下发');
    const round = set.round!;
    const { content, contentSha256 } = roundOf(c, dueDate, round, facts);
    await tx.countersignRound.create({
      data: {
        countersignId: id,
        round,
        content: content as unknown as Prisma.InputJsonValue,
        contentSha256,
        issuedAt: now,
        issuedByName: user.name,
      },
    });
    await writeEvent(tx, {
      id,
      round,
      action: 'ISSUE',
      user,
      client,
      at: now,
      detail: issueDetail(round, c.supplierCode, content.supplierName),
    });
    await countersignWaiting(tx, id, 'supplier', now);
  });
}

export async function cancelCountersign(
  db: Db,
  user: SessionUser,
  id: number,
  reason: string,
  client: ClientInfo,
  now = new Date(),
): Promise<void> {
  await db.$transaction(async (tx) => {
    const c = await issuerRow(tx, user, id);
    const seen = { status: c.status as CountersignStatus, round: c.round, step: c.step };
    if (!(await move(tx, id, 'cancel', seen, cancelColumns(reason, now))))
      throw conflict('该会签单已被他人更新，请刷新后重试');
    await writeEvent(tx, { id, round: c.round, action: 'CANCEL', user, client, at: now, detail: reason });
  });
}

async function refusal(tx: Tx, user: SessionUser, c: SignState, b: Submit, side: Side): Promise<string | null> {
  const signedAlready = await tx.countersignSignature.findUnique({
    where: { countersignId_round_step: { countersignId: c.id, round: b.round, step: b.step } },
    select: { userName: true },
  });
  return refusalOf(user, c, b, side, signedAlready?.userName ?? null);
}

/** Who hears of a signature: the next signer in turn, the issuer of a returned list, everyone of a completed one. */
async function notifyTurn(
  tx: Tx,
  c: SignState,
  m: CountersignMove,
  nextStep: number,
  by: string,
  comment: string | undefined,
  now: Date,
): Promise<void> {
  if (m === 'return') await countersignReturned(tx, c.id, by, comment, now);
  else if (m === 'complete') await countersignCompleted(tx, c.id, now);
  else {
    const next = c.signerIds[nextStep - 1];
    if (next !== undefined) await countersignWaiting(tx, c.id, next, now);
  }
}

/**
 * A signature: 同意 / 有条件同意 moves to the next step (or completes the list after the last
 * signer); 退回 ends the round. The move, the signature (with the round's content sha256) and the
 * event commit together; a second submit of the same step finds the row moved and gets 409.
 */
export async function submitSignature(
  db: Db,
  user: SessionUser,
  b: Submit,
  side: Side,
  client: ClientInfo,
  now = new Date(),
) {
  return db.$transaction(async (tx) => {
    const c = await tx.countersign.findFirst({
      where: { id: b.id, ...(side.kind === 'supplier' ? { supplierCode: side.supplierCode, round: { gt: 0 } } : {}) },
    });
    if (!c) throw notFound(COUNTERSIGN_NOT_FOUND);
    const why = await refusal(tx, user, c, b, side);
    if (why) throw conflict(why);
    const status = c.status as CountersignStatus;
    const { m, nextStep } = signMove(c, b.decision);
    const moved = await move(tx, c.id, m, { status, round: c.round, step: c.step }, signColumns(m, nextStep, now));
    if (!moved) {
      // another submit of this step committed first (we waited on its row lock): say what it did
      throw conflict(
        (await refusal(tx, user, await tx.countersign.findUniqueOrThrow({ where: { id: c.id } }), b, side)) ??
          '会签单已有新的进展，请刷新后查看',
      );
    }
    const round = await tx.countersignRound.findUniqueOrThrow({
      where: { countersignId_round: { countersignId: c.id, round: c.round } },
      select: { contentSha256: true },
    });
    await tx.countersignSignature.create({ data: signatureData(c, user, b, round.contentSha256, client, now) });
    const outcome = roundOutcome(m);
    if (outcome)
      await tx.countersignRound.update({
        where: { countersignId_round: { countersignId: c.id, round: c.round } },
        data: { outcome, endedAt: now },
      });
    for (const e of signEvents(c, m, user, b, client, now)) await writeEvent(tx, e);
    await notifyTurn(tx, c, m, nextStep, displayName(user), b.comment, now);
    return { status: COUNTERSIGN_TRANSITIONS[m].to as CountersignStatus, round: c.round, step: nextStep };
  });
}
