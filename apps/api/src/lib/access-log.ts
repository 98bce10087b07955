/**
 * The one writer of access_log rows: view, confirm, download, print and agreement
 * acceptance, served or refused. Each row snapshots who (account, display name, type,
 * supplier), what (file, standard code, version, material) and from where, so the log still
 * reads right after a user, supplier or file changes.
 *
 * An OK or SENT row is written with the `tx` of the interactive transaction that authorises the
 * action ("no bytes without a log row"); a SENT row's delivery is recorded by lib/access-log-delivery.ts.
 * A refusal is written and committed before the refusal is answered. Pass the transaction client, never the outer one, inside `$transaction` (the
 * embedded PGlite runs one query at a time and would deadlock).
 */
import type { LogAction, LogOutcome } from '@esm/contracts';
import { Prisma } from '../generated/prisma/client.ts';
import { writeRow } from '../db/rows.ts';
import type { Db } from '../db/database.ts';
import type { SessionUser } from '../plugins/auth.ts';

/** What a log row says about the file acted on. */
export interface FileSnapshot {
  id: number;
  standardCode: string;
  fileName: string;
  version: string;
  materialCode: string;
  materialName: string;
}

/** Where the request came from. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * What a row says when written: OK (done), REFUSED, or SENT — a delivery authorised and leaving,
 * whose end a delivery row records (lib/access-log-delivery.ts).
 */
export type StoredOutcome = Exclude<LogOutcome, 'PARTIAL'> | 'SENT';

export interface AccessLogEntry extends ClientInfo {
  action: LogAction;
  outcome: StoredOutcome;
  /** Why it was refused, in the words the user was shown. */
  reason?: string | null;
  user: SessionUser;
  file?: FileSnapshot | null;
  /** KEEPSECRET rows: the agreement accepted, kept in the file name and version columns. */
  agreement?: { version: number; title: string } | null;
  /** A document the portal wrote itself (a countersign sign-off sheet): its number, file name and round, kept in the file columns. */
  document?: { code: string; fileName: string; version: string } | null;
  /** A sent copy's copy code (copy-code.ts), stamped on it. */
  copyCode?: string | null;
}

const cut = (s: string | null | undefined, max: number) => (s == null ? null : s.slice(0, max));

/** The columns of one row, as the table names them in the client (AccessLog). */
function rowOf(e: AccessLogEntry) {
  const { user, file, agreement, document } = e;
  return {
    action: e.action,
    outcome: e.outcome,
    reason: cut(e.reason, 200),
    userId: user.id,
    userAccount: user.account,
    // suppliers are known by their nick (company + person), staff by their name
    userName: user.isSupplier ? user.nick : user.name,
    userType: user.type,
    supplierCode: user.isSupplier ? user.supplierCode : null,
    supplierName: user.isSupplier ? cut(user.supplierName, 200) : null,
    fileId: file?.id ?? null,
    standardCode: file?.standardCode ?? document?.code ?? null,
    fileName: cut(file?.fileName ?? agreement?.title ?? document?.fileName, 255),
    version: file?.version ?? (agreement ? `V${agreement.version}` : (document?.version ?? null)),
    materialCode: file?.materialCode ?? null,
    materialName: cut(file?.materialName, 200),
    ip: cut(e.ip, 64),
    userAgent: cut(e.userAgent, 400),
    copyCode: e.copyCode ?? null,
  };
}

/** Writes one row; answers its id and time (a confirmation's time is its row's). */
export async function writeAccessLog(
  tx: Prisma.TransactionClient,
  e: AccessLogEntry,
): Promise<{ id: number; createdAt: Date }> {
  return tx.accessLog.create({ select: { id: true, createdAt: true }, data: rowOf(e) });
}

/**
 * Writes one row as a statement of its own, committed at once — for a row that is the whole act
 * (a file call's SENT or REFUSED row, files/service.ts) — without Prisma's client on the way
 * (db/rows.ts writeRow): the same row writeAccessLog writes, its time taken here as Prisma's
 * `now()` default takes it.
 */
export async function insertAccessLog(db: Db, e: AccessLogEntry): Promise<{ id: number; createdAt: Date }> {
  const r = rowOf(e);
  return writeRow(
    db,
    Prisma.sql`INSERT INTO access_log (action, outcome, reason, user_id, user_account, user_name, user_type, supplier_code,
  supplier_name, file_id, standard_code, file_name, version, material_code, material_name, ip, user_agent, copy_code, created_at)
VALUES (${r.action}, ${r.outcome}, ${r.reason}, ${r.userId}, ${r.userAccount}, ${r.userName}, ${r.userType}, ${r.supplierCode},
  ${r.supplierName}, ${r.fileId}, ${r.standardCode}, ${r.fileName}, ${r.version}, ${r.materialCode}, ${r.materialName}, ${r.ip},
  ${r.userAgent}, ${r.copyCode}, ${new Date()})
RETURNING id, created_at AS "createdAt"`,
    'esm_insert_access_log',
  );
}

/**
 * Refused calls that name no file (an unknown id, or one that is not an id at all) are logged
 * too — a probe must leave a trace — but at most this many per user and minute, so a flood of
 * them cannot bloat the log; past it they go to the application log only.
 */
export const REFUSED_UNKNOWN_PER_MINUTE = 20;
const LOCK_REFUSED_UNKNOWN = 30501;

/**
 * Writes the REFUSED row of a call for a file that does not exist (or is not an id), unless the
 * user already has REFUSED_UNKNOWN_PER_MINUTE of them in the last minute. The count and the
 * insert run under a per-user advisory lock, so a burst of probes cannot pass the bound
 * together. Answers whether a row was written.
 */
export async function writeRefusedUnknown(
  db: Db,
  e: Omit<AccessLogEntry, 'outcome' | 'file' | 'agreement'>,
  requested: unknown,
): Promise<boolean> {
  const shown = typeof requested === 'string' ? requested : (JSON.stringify(requested) ?? String(requested));
  const reason = `${e.reason ?? '文件不存在'}（请求的编号：${shown.slice(0, 80)}）`;
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_REFUSED_UNKNOWN}::int, ${e.user.id}::int)`;
    const recent = await tx.accessLog.count({
      // only rows of this kind: no file, no agreement (KEEPSECRET) and no document of the portal's
      // own (a sign-off sheet, a question's attachment that could not be stamped) — those are
      // refusals of something that exists, always written, and must not use up a probe's room
      where: {
        userId: e.user.id,
        outcome: 'REFUSED',
        fileId: null,
        standardCode: null,
        action: { not: 'KEEPSECRET' },
        createdAt: { gte: new Date(Date.now() - 60_000) },
      },
    });
    if (recent >= REFUSED_UNKNOWN_PER_MINUTE) return false;
    await writeAccessLog(tx, { ...e, outcome: 'REFUSED', reason, file: null });
    return true;
  });
}

/** The client of a request as the log keeps it. */
export function clientOf(request: { ip: string; headers: Record<string, string | string[] | undefined> }): ClientInfo {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 400) : null };
}
