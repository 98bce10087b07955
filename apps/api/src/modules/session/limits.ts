/**
 * Login limits: how many password checks an account and an address get in
 * the window, enforced the same way whatever arrives at once and on any number of api processes.
 *
 * Each attempt first takes a slot: in one short transaction, under an advisory lock on the
 * account and then one on the address, it counts the failures in the window and — if the limits
 * allow — inserts its own login_attempt row as a failure, before the password is checked. The
 * check runs after the commit (scrypt must not hold a lock or a connection); its outcome then
 * turns the row into a success. So a burst of twenty attempts on one account gets exactly
 * `loginMaxFailuresPerAccount` checks: the others find the slots taken, in flight or failed.
 *
 * Only a wrong password is a failure. An attempt that ends in any other error before the check
 * said "wrong" (the database gone mid-attempt, a restart cutting its connection) gives its slot
 * back: the row is removed (voidLoginSlot). When the database cannot be reached to do so, the
 * process remembers the row and removes it in the next slot transaction it runs, before it
 * counts, and in the periodic sweep — so an outage does not lock anyone out once it is over.
 * (A process that dies between slot and outcome leaves a failure: the safe side.)
 *
 * The rules, per window, for an attempt on account A from address X:
 *  - A "known address" of A is one A signed in from in the last KNOWN_ADDRESS_DAYS days. From
 *    there only the pair's own failures count: at most N of them (N = loginMaxFailuresPerAccount).
 *  - From any other address, A's failures from everywhere count (at most N), and X's failures
 *    on all accounts count (at most P = loginMaxFailuresPerIp).
 * Consequences (docs/operators.md, "Login limits"): guessing one account gets N checks per window from all
 * unknown addresses together (plus N per address the account really signs in from); spraying
 * many accounts from one address stops after P failures; and neither locks a user out at an
 * address they sign in from — a colleague behind the same proxy or NAT, or the account's owner at
 * their usual place, still signs in while an attacker is refused. What it cannot tell apart:
 * someone signing in for the first time from an address that is being sprayed waits for the window.
 */
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { Config } from '../../config.ts';

/** pg_advisory_xact_lock(class, key) classes: one lock per account, one per address. */
const LOCK_LOGIN_ACCOUNT = 30401;
const LOCK_LOGIN_ADDRESS = 30402;

/** How long a successful sign-in makes its address a known one for the account. */
export const KNOWN_ADDRESS_DAYS = 30;
const DAY_MS = 86_400_000;

export type SlotVerdict = { ok: true; attemptId: number } | { ok: false; retryAfterSeconds: number };

interface Counts {
  pair: number;
  account: number;
  address: number;
  known: boolean;
  oldest: Date | null;
}

/**
 * Takes a password-check slot for (account, ip), or says when to come back. The transaction is
 * a handful of index reads; its wait for the locks is the only queue, and it is per account.
 */
export async function takeLoginSlot(db: Db, config: Config, account: string, ip: string): Promise<SlotVerdict> {
  const voided = voidedOf(db);
  let removed: number[] = [];
  const now = Date.now();
  const since = new Date(now - config.loginWindowMs);
  const knownSince = new Date(now - KNOWN_ADDRESS_DAYS * DAY_MS);
  const verdict = await db.$transaction(
    async (tx) => {
      // Always the account first, then the address: no transaction ever waits for an account
      // lock while holding an address lock, so two attempts cannot deadlock.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_LOGIN_ACCOUNT}::int, hashtext(${account}))`;
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_LOGIN_ADDRESS}::int, hashtext(${ip}))`;
      removed = await removeVoided(tx, voided);
      const [c] = await tx.$queryRaw<Counts[]>(Prisma.sql`
SELECT
  (SELECT count(*)::int FROM login_attempt WHERE account = ${account} AND ip = ${ip} AND NOT success AND created_at >= ${since}) AS pair,
  (SELECT count(*)::int FROM login_attempt WHERE account = ${account} AND NOT success AND created_at >= ${since}) AS account,
  (SELECT count(*)::int FROM login_attempt WHERE ip = ${ip} AND NOT success AND created_at >= ${since}) AS address,
  EXISTS (SELECT 1 FROM login_attempt WHERE account = ${account} AND ip = ${ip} AND success AND created_at >= ${knownSince}) AS known,
  (SELECT min(created_at) FROM login_attempt WHERE (account = ${account} OR ip = ${ip}) AND NOT success AND created_at >= ${since}) AS oldest`);
      const counts = c!;
      const refused = counts.known
        ? counts.pair >= config.loginMaxFailuresPerAccount
        : counts.account >= config.loginMaxFailuresPerAccount || counts.address >= config.loginMaxFailuresPerIp;
      if (refused) {
        // the earliest counted failure leaves the window first: a fair hint, never a promise
        const oldest = counts.oldest ? new Date(counts.oldest).getTime() : now;
        return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil((oldest + config.loginWindowMs - now) / 1000)) };
      }
      const row = await tx.loginAttempt.create({ data: { account, ip, success: false }, select: { id: true } });
      return { ok: true as const, attemptId: row.id };
    },
    // the locks queue a burst on one account; on a busy machine that may take a while
    { maxWait: 20_000, timeout: 20_000 },
  );
  forget(voided, removed);
  return verdict;
}

/** The slot's outcome: a right password turns the reserved failure into a success. */
export async function settleLoginSlot(db: Db, attemptId: number, success: boolean): Promise<void> {
  if (success) await db.loginAttempt.update({ where: { id: attemptId }, data: { success: true } });
}

/**
 * Slots of attempts that ended in an error, not in a wrong password, which could not be given
 * back at the time (the database unreachable): per database client, i.e. per process. A
 * best-effort memory — lost with the process, which leaves failures: the safe side.
 */
const pendingVoids = new WeakMap<Db, Set<number>>();
const voidedOf = (db: Db) => pendingVoids.get(db) ?? pendingVoids.set(db, new Set()).get(db)!;

/**
 * Removes the remembered slots (inside the caller's transaction, or on its own); answers the ids
 * to forget once that has committed — a removal that fails keeps them for the next try.
 */
async function removeVoided(q: Db | Prisma.TransactionClient, voided: Set<number>): Promise<number[]> {
  if (voided.size === 0) return [];
  const ids = [...voided];
  // only rows still counted as failures: a settled success stays whatever happens here
  await q.loginAttempt.deleteMany({ where: { id: { in: ids }, success: false } });
  return ids;
}
const forget = (voided: Set<number>, ids: number[]) => ids.forEach((id) => voided.delete(id));

/**
 * The attempt ended in an error other than a wrong password: its slot is no failure. Never
 * throws — the caller is already answering that error; what cannot be removed now is
 * remembered and removed by the next slot transaction or sweep of this process.
 */
export async function voidLoginSlot(db: Db, attemptId: number): Promise<void> {
  try {
    await db.loginAttempt.deleteMany({ where: { id: attemptId, success: false } });
  } catch {
    voidedOf(db).add(attemptId);
  }
}

/**
 * Attempts kept: failures as long as a window needs them (at least a day, for audit); successes
 * as long as they make an address known.
 */
export async function sweepLoginAttempts(db: Db, config: Config): Promise<void> {
  const voided = voidedOf(db);
  forget(voided, await removeVoided(db, voided));
  const now = Date.now();
  await db.loginAttempt.deleteMany({ where: { success: false, createdAt: { lt: new Date(now - Math.max(config.loginWindowMs, DAY_MS)) } } });
  await db.loginAttempt.deleteMany({ where: { success: true, createdAt: { lt: new Date(now - KNOWN_ADDRESS_DAYS * DAY_MS) } } });
}
