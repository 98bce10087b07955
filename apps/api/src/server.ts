/**
 * The only entry point (`pnpm start` runs its bundle, dist/server.mjs). On a first start of the
 * embedded database (no DATABASE_URL, no cluster in DATA_DIR yet) it first starts unpacking the
 * prepared image (db/image.ts: read, gunzip, ~40 MB of writes, ~0.2–0.4 s) in a worker thread
 * running this same file, so that it overlaps the main thread loading the server's modules
 * (issue 16); then it starts the server (start.ts). Only node's own modules, paths.ts and
 * db/image.ts are loaded before the worker is on its way, and they are all a worker loads.
 */
import { mkdirSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { dataDirOf, databaseUrlOf, pgdataOf } from './paths.ts';
import { hasCluster, restoreImage, type ImageManifest } from './db/image.ts';

const TASK = 'esm:restore-image';

/** The unpacking in a worker running this file; its result, the manifest or null, as restoreImage's. */
function restoreInWorker(pgdata: string): Promise<ImageManifest | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { task: TASK, pgdata } });
    let answered = false;
    worker.once('message', (m: ImageManifest | null) => {
      answered = true;
      resolve(m);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the database image's unpacking ended without an answer (exit code ${code})`));
    });
  });
}

const task = workerData as { task?: string; pgdata?: string } | null;
if (!isMainThread && task?.task === TASK && task.pgdata) {
  mkdirSync(task.pgdata, { recursive: true });
  parentPort?.postMessage(restoreImage(task.pgdata));
} else {
  const pgdata = pgdataOf(dataDirOf(process.env));
  const restoring = !databaseUrlOf(process.env) && !hasCluster(pgdata) ? restoreInWorker(pgdata) : undefined;
  restoring?.catch(() => undefined); // awaited by openDatabase; not an unhandled rejection meanwhile
  const { start } = await import('./start.ts');
  await start(restoring);
}
