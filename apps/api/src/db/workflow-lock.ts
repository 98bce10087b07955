/**
 * The row lock a workflow move takes before it reads what it moves.
 *
 * A move decides by its guarded write (`UPDATE … WHERE status IN (from)`), which catches a second
 * move. It does not catch an edit, which leaves the status as it was: a move that read the record,
 * then waited at its UPDATE behind an edit's uncommitted write, went on with what it had read
 * before the edit — a notice published to the suppliers of the material it no longer named, a
 * countersign round frozen with the files and signers the list no longer had, a draft submitted
 * past the check on its new materials. Taking the record's row lock first (`SELECT … FOR UPDATE`,
 * the transaction's first statement on it) makes the move wait for an edit or a move in flight
 * and then read what they committed; an edit's own guarded write, behind a move, finds the status
 * moved and answers 409. Two actions on one record therefore run one after the other; actions on
 * different records do not wait for each other.
 */
import { Prisma } from '../generated/prisma/client.ts';

const TABLES = {
  notice: 'change_notice',
  countersign: 'countersign',
  application: 'empower_application',
  issue: 'document_issue',
} as const;

export type WorkflowRecord = keyof typeof TABLES;

/** Locks the record's row until the transaction ends (nothing when it does not exist: the read after says 404). */
export async function lockRecord(tx: Prisma.TransactionClient, kind: WorkflowRecord, id: number): Promise<void> {
  await tx.$executeRaw`SELECT 1 FROM ${Prisma.raw(TABLES[kind])} WHERE id = ${id} FOR UPDATE`;
}
