/**
 * file/view, file/print, file/download: the only ways to a stored file's bytes. The
 * answer is the caller's stamped copy, never cached by the browser or a proxy.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FILE_ACTION_ENDPOINTS, type FileAction } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import type { Storage } from '../../lib/storage.ts';
import { route } from '../../lib/route.ts';
import { clientOf } from '../../lib/access-log.ts';
import { sendDelivery } from '../../lib/access-log-delivery.ts';
import { setStampConcurrency, stampQueueLength } from '../../lib/stamp-queue.ts';
import { logMalformedFileCalls, serveFile, type ServedFile } from './service.ts';
import { bytesServed, reportStampQueue } from '../../lib/metrics.ts';

/** The bytes a file call answers, counted for the metrics (esm_file_bytes_served_total). */
const countServed = (action: FileAction, served: ServedFile) => (
  bytesServed.inc(
    { action: action.toLowerCase() },
    'bytes' in served.body ? served.body.bytes.byteLength : served.body.size,
  ),
  served
);

function send(db: Db, reply: FastifyReply, served: ServedFile) {
  reply
    .header('Content-Type', served.contentType)
    .header('Content-Disposition', served.contentDisposition)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
  return sendDelivery(db, reply, served.logId, served.body);
}

export async function fileRoutes(
  app: FastifyInstance,
  { db, storage, stampConcurrency }: { db: Db; storage: Storage; stampConcurrency?: number },
) {
  if (stampConcurrency) setStampConcurrency(stampConcurrency);
  reportStampQueue(stampQueueLength);
  app.addHook('onError', logMalformedFileCalls(db));
  for (const [action, e] of Object.entries(FILE_ACTION_ENDPOINTS) as [
    FileAction,
    (typeof FILE_ACTION_ENDPOINTS)[FileAction],
  ][]) {
    route(app, e, async ({ body, user, request, reply }) =>
      send(db, reply, countServed(action, await serveFile({ db, storage }, user, body.id, action, clientOf(request)))),
    );
  }
}
