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
 * back: the row is removed (voidLoginSlot). That may be impossible at the time — the database
 * unreachable — and the process that took the slot may be one of several, or die. So the rule is
 * kept in the row itself, read the same by every process: a slot whose check is still out
 * carries `check_until` (the database's clock + config.loginCheckMs) and counts only until then;
 * settling clears it, and a check that has not settled by then cannot settle any more (its
 * attempt answers 503 and tells nothing about the password). An outage therefore locks nobody out
 * past loginCheckMs, on any process, even one that never ran the attempt; the process that took
 * the slot also removes it in its next slot transaction or sweep, which frees it sooner there.
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
import { AppError } from '../../plugins/errors.ts';

/** pg_advisory_xact_lock(class, key) classes: one lock per account, one per address. */
const LOCK_LOGIN_ACCOUNT = 30401;
const LOCK_LOGIN_ADDRESS = 30402;

/** The database's clock as the UTC timestamps the table keeps (timestamp without time zone). */
const DB_NOW = Prisma.sql`(clock_timestamp() AT TIME ZONE 'UTC')`;
/** A failure that counts: settled, or a slot whose check may still settle. */
const COUNTS = Prisma.sql`NOT success AND (check_until IS NULL OR check_until > ${DB_NOW})`;

/** How long a successful sign-in makes its address a known one for the account. */
export const KNOWN_ADDRESS_DAYS = 30;
const DAY_MS = 86_400_000;

export type SlotVerdict = { ok: true; attemptId: number } | { ok: false; retryAfterSeconds: number };

interface Counts {
  pair: number;
  account: number;
  address: number;
  known: boolean;
  /** When the first counted failure stops counting: leaves the window, or its check runs out. */
  freed: Date | null;
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
      // lock while holding an address lock, so two attempts cannot deadlock. One statement takes
      // both, in that order: its two output columns are computed left to right.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_LOGIN_ACCOUNT}::int, hashtext(${account})), pg_advisory_xact_lock(${LOCK_LOGIN_ADDRESS}::int, hashtext(${ip}))`;
      removed = await removeVoided(tx, voided);
      const windowMs = config.loginWindowMs;
      const [c] = await tx.$queryRaw<Counts[]>(Prisma.sql`
SELECT
  (SELECT count(*)::int FROM login_attempt WHERE account = ${account} AND ip = ${ip} AND ${COUNTS} AND created_at >= ${since}) AS pair,
  (SELECT count(*)::int FROM login_attempt WHERE account = ${account} AND ${COUNTS} AND created_at >= ${since}) AS account,
  (SELECT count(*)::int FROM login_attempt WHERE ip = ${ip} AND ${COUNTS} AND created_at >= ${since}) AS address,
  EXISTS (SELECT 1 FROM login_attempt WHERE account = ${account} AND ip = ${ip} AND success AND created_at >= ${knownSince}) AS known,
  (SELECT min(LEAST(coalesce(check_until, 'infinity'), created_at + make_interval(secs => ${windowMs / 1000}::float8)))
     FROM login_attempt WHERE (account = ${account} OR ip = ${ip}) AND ${COUNTS} AND created_at >= ${since}) AS freed`);
      const counts = c!;
      const refused = counts.known
        ? counts.pair >= config.loginMaxFailuresPerAccount
        : counts.account >= config.loginMaxFailuresPerAccount || counts.address >= config.loginMaxFailuresPerIp;
      if (refused) {
        // the earliest counted failure stops counting first: a fair hint, never a promise
        const freed = counts.freed ? new Date(counts.freed).getTime() : now + config.loginWindowMs;
        return { ok: false as const, retryAfterSeconds: Math.max(1, Math.ceil((freed - now) / 1000)) };
      }
      const [row] = await tx.$queryRaw<{ id: number }[]>(Prisma.sql`
INSERT INTO login_attempt (account, ip, success, check_until)
VALUES (${account}, ${ip}, false, ${DB_NOW} + make_interval(secs => ${config.loginCheckMs / 1000}::float8))
RETURNING id`);
      return { ok: true as const, attemptId: row!.id };
    },
    // the locks queue a burst on one account; on a busy machine that may take a while
    { maxWait: 20_000, timeout: 20_000 },
  );
  forget(voided, removed);
  return verdict;
}

/**
 * The slot's outcome: a wrong password makes it a failure for good, a right one a success. Only
 * while its check may still settle: past check_until every process has stopped counting it, so
 * neither outcome may be told (a 503; the caller gives the slot back).
 */
export async function settleLoginSlot(db: Db, attemptId: number, success: boolean): Promise<void> {
  const settled =
    await db.$executeRaw`UPDATE login_attempt SET success = ${success}, check_until = NULL WHERE id = ${attemptId} AND check_until > ${DB_NOW}`;
  if (settled !== 1) throw new AppError(503, '登录校验超时，请稍后重试', '503', undefined, { 'Retry-After': '1' });
}

/**
 * Slots of attempts that ended in an error, not in a wrong password, which could not be given
 * back at the time (the database unreachable): per database client, i.e. per process. Only a
 * shortcut — every process stops counting them at their check_until anyway.
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
  await db.loginAttempt.deleteMany({
    where: { success: false, createdAt: { lt: new Date(now - Math.max(config.loginWindowMs, DAY_MS)) } },
  });
  await db.loginAttempt.deleteMany({
    where: { success: true, createdAt: { lt: new Date(now - KNOWN_ADDRESS_DAYS * DAY_MS) } },
  });
}
