/**
 * The record of each verification (audit_verification): the page shows the last one, and a
 * verification holds the chains to the heads of the last one that passed, so rows removed from
 * a chain's end (which leave no gap behind them) show as well.
 */
import type { Db } from '../../db/database.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import { verifyChains, type ChainHead, type ChainReport, type KnownHead } from './chain.ts';

export interface Verifier {
  source: 'CLI' | 'PAGE';
  userId: number | null;
  userName: string;
}

/** The heads of the last verification that passed, to hold the chains to. */
export async function lastPassedHeads(db: Db): Promise<KnownHead[]> {
  const last = await db.auditVerification.findFirst({
    where: { ok: true },
    orderBy: { id: 'desc' },
    select: { heads: true, createdAt: true },
  });
  if (!last) return [];
  return (last.heads as unknown as ChainHead[])
    .filter((h) => h.seq > 0)
    .map((h) => ({ ...h, source: '上次通过的校验' }));
}

export async function recordVerification(db: Db, report: ChainReport, by: Verifier) {
  return db.auditVerification.create({
    data: {
      source: by.source,
      userId: by.userId,
      userName: by.userName,
      ok: report.ok,
      rows: report.rows,
      problems: report.problems as unknown as Prisma.InputJsonValue,
      heads: report.heads as unknown as Prisma.InputJsonValue,
    },
  });
}

/** Verifies every chain against the last passed verification's heads and `known`, and records it. */
export async function verifyAndRecord(db: Db, by: Verifier, known: readonly KnownHead[] = []) {
  const report = await verifyChains(db, [...(await lastPassedHeads(db)), ...known]);
  const row = await recordVerification(db, report, by);
  return { report, row };
}
