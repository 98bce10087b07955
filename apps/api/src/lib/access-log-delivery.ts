/**
 * Delivery records: what became of a view, print or download after it was authorised.
 *
 * The transaction that authorises a delivery writes its access_log row with outcome SENT ("the
 * bytes are leaving"); when the response ends, one access_delivery row naming it says whether
 * every byte went out, how many did and how many there were. The first row is never updated:
 * rows that record acts are append-only, so a later fact about an act is a row of its own.
 *
 * "Complete" means every byte was handed to the operating system's socket — the response's and
 * the socket's buffers empty after the last byte. TCP gives the server no receipt, so it cannot
 * prove the client's program read them; it does prove that the server did not stop short (a
 * client that went away, a process that stopped, a storage error mid-stream): those are recorded
 * incomplete with the bytes that had gone out by then (a lower bound). A SENT row with no
 * delivery row is a delivery whose process died before the response ended: not delivered.
 *
 * The complete row is committed before the response's last step (its end), so a caller that has
 * its whole response (an API test's inject, a user who then confirms a notice) finds it.
 */
import { Readable, Transform, pipeline } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { Prisma } from '../generated/prisma/client.ts';
import type { Db } from '../db/database.ts';
import { finishBeforeStop } from './shutdown.ts';
import { writeRow } from '../db/rows.ts';

/**
 * An access_log row `alias` whose bytes were all delivered: a SENT row with a complete delivery
 * row, or an OK row (rows written before delivery records existed, and the seeded demo history,
 * said OK once authorised; they are read as they were written).
 */
export const deliveredSql = (alias: string) =>
  Prisma.raw(
    `(${alias}.outcome = 'OK' OR (${alias}.outcome = 'SENT' AND EXISTS (SELECT 1 FROM access_delivery ad WHERE ad.access_log_id = ${alias}.id AND ad.complete)))`,
  );

/** A delivery's bytes: a file in memory (a stamped copy) or a stream from storage of known size. */
export type DeliveryBody = { bytes: Uint8Array } | { stream: Readable; size: number };

/** Chunks a copy in memory is written in: progress is counted per chunk, and backpressure holds. */
const CHUNK = 64 * 1024;

function* chunksOf(bytes: Uint8Array) {
  for (let i = 0; i < bytes.byteLength; i += CHUNK)
    yield Buffer.from(bytes.buffer, bytes.byteOffset + i, Math.min(CHUNK, bytes.byteLength - i));
}

/**
 * Sends `body` as the reply and records how its delivery ended against access_log row `logId`.
 * Headers (type, disposition) are the caller's; the length is set here.
 */
export function sendDelivery(db: Db, reply: FastifyReply, logId: number, body: DeliveryBody): FastifyReply {
  const res = reply.raw;
  const total = 'bytes' in body ? body.bytes.byteLength : body.size;
  const source = 'bytes' in body ? Readable.from(chunksOf(body.bytes)) : body.stream;
  let pushed = 0;
  /** Bytes handed to the operating system: counted in each body write's callback, which the socket calls once its bytes are. */
  let handed = 0;
  let recorded = false;
  let allHanded!: () => void;
  const allHandedOver = new Promise<void>((resolve) => (allHanded = resolve));
  let closed!: () => void;
  const responseClosed = new Promise<void>((resolve) => (closed = resolve));

  const record = (complete: boolean) => {
    if (recorded) return Promise.resolve();
    recorded = true;
    // one insert, committed by itself, off Prisma's client (db/rows.ts writeRow): every view's last write
    const write = writeRow(
      db,
      Prisma.sql`INSERT INTO access_delivery (access_log_id, complete, bytes_sent, bytes_total, finished_at)
VALUES (${logId}, ${complete}, ${complete ? total : handed}, ${total}, ${new Date()}) RETURNING id`,
      'esm_insert_access_delivery',
    ).catch((err: unknown) => reply.log.error({ err, accessLogId: logId }, 'delivery record not written'));
    finishBeforeStop(write); // a stop closes the pool only after it
    return write;
  };

  // Every body chunk goes through res.write (Fastify pipes the stream below into it): each gets a
  // callback, called when the socket has handed that chunk to the operating system — an error
  // (the connection gone) leaves it uncounted.
  const write = res.write;
  res.write = function (this: typeof res, chunk: Buffer | string, ...rest: unknown[]) {
    if (typeof chunk === 'string' || rest.length)
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    const n = chunk.length;
    return (write as (chunk: Buffer, cb: (err?: Error | null) => void) => boolean).call(this, chunk, (err) => {
      if (err) return;
      handed += n;
      if (handed === total) allHanded();
    });
  } as typeof res.write;

  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      pushed += chunk.length;
      cb(null, chunk);
    },
    // The source has ended: once every byte has been handed to the operating system, record the
    // delivery complete, and only then let the response end.
    flush(cb) {
      if (pushed !== total) return cb(new Error(`stored file shorter than its size (${pushed} of ${total} bytes)`));
      void Promise.race([allHandedOver.then(() => record(true)), responseClosed]).then(() => cb());
    },
  });
  if (total === 0) allHanded();
  // A response that closes before every byte went out was cut short: by the client, by the
  // process stopping, or by the source failing (Fastify destroys the response then).
  res.once('close', () => {
    closed();
    void record(handed === total);
  });
  if (res.destroyed) {
    closed();
    void record(false);
  }
  pipeline(source, meter, () => {});
  return reply.header('Content-Length', total).send(meter);
}
