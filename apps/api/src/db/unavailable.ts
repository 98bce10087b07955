/**
 * Is this error "the database cannot be reached right now" (503 with Retry-After)?
 * Such errors come three ways: from Prisma (its own codes, or the driver adapter's error kind in
 * `meta.driverAdapterError.cause`), from the `pg` pool straight (db/rows.ts: socket errors,
 * "Connection terminated", pool connect time-outs) and from Postgres itself while it shuts down or
 * starts (SQLSTATE 57P01–57P03, class 08, 53300). Anything else is a real failure (500).
 */

/** Prisma: can't reach the server, connect timed out, operation timed out, server closed the connection, pool time-out. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** @prisma/adapter-pg's error kinds for a lost or refused connection. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Node socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
/** Postgres: admin shutdown, crash shutdown, cannot connect now (starting / recovering), too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Can't reach database server|Server has closed the connection/i;

function isUnavailableNode(e: Record<string, unknown>): boolean {
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && (PRISMA_CODES.has(code) || SQLSTATES.has(code) || /^08\d{3}$/.test(code))) return true;
  // a socket error of a connection we opened (a client that aborts its request has no syscall)
  if (code && SOCKET_CODES.has(code) && typeof e.syscall === 'string') return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (e.kind === 'postgres' && typeof e.code === 'string' && (SQLSTATES.has(e.code) || /^08\d{3}$/.test(e.code)))
    return true;
  if (typeof e.originalCode === 'string' && (SQLSTATES.has(e.originalCode) || /^08\d{3}$/.test(e.originalCode)))
    return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message) && !('statusCode' in e);
}

/** Whether the error, or any error it wraps (cause, Prisma's driver adapter error), satisfies `test`. */
function anyInChain(error: unknown, test: (node: Record<string, unknown>) => boolean): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const node = e as Record<string, unknown>;
    if (test(node)) return true;
    queue.push(node.cause);
    const meta = node.meta as Record<string, unknown> | undefined;
    if (meta && typeof meta === 'object')
      queue.push(meta.driverAdapterError, (meta.driverAdapterError as Record<string, unknown> | undefined)?.cause);
  }
  return false;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return anyInChain(error, isUnavailableNode);
}

/**
 * Postgres refusing a value a request carried: a NUL character or an invalid byte sequence
 * (22021, 22P05), a number outside its column's range (22003), an impossible date (22008,
 * 22007), text that is not a number (22P02), a string too long (22001); Prisma's own codes for
 * the same (P2000, P2007, P2020, P2033). The request schemas should refuse these first
 * (packages/contracts); this is the net under them, so such a request is a 400, never a 500.
 */
const BAD_INPUT_SQLSTATES = new Set(['22021', '22P05', '22003', '22008', '22007', '22P02', '22001']);
const BAD_INPUT_PRISMA = new Set(['P2000', 'P2007', 'P2020', 'P2033']);
const BAD_INPUT_KINDS = new Set(['ValueOutOfRange', 'LengthMismatch', 'InvalidInputValue']);

export function isBadInputError(error: unknown): boolean {
  return anyInChain(error, (e) => {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (BAD_INPUT_SQLSTATES.has(code) || BAD_INPUT_PRISMA.has(code))) return true;
    if (typeof e.originalCode === 'string' && BAD_INPUT_SQLSTATES.has(e.originalCode)) return true;
    return typeof e.kind === 'string' && BAD_INPUT_KINDS.has(e.kind);
  });
}
