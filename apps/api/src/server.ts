/**
 * The only entry point (`pnpm start` runs its bundle, dist/server.mjs). On a first start of the
 * embedded database (no DATABASE_URL, no cluster in DATA_DIR yet) it first starts unpacking the
 * prepared image (db/image.ts: read, gunzip, ~25 MB of writes, ~0.2–0.5 s) in a worker thread
 * running this same file, so that it overlaps the main thread loading the server's modules
 * — with the demo data, the demo image when it is usable today (its stored files
 * included) — then it starts the server (start.ts). The embedded database's open (db/embedded.ts) starts
 * here too, as soon as the data directory holds a cluster, so that it also overlaps the modules'
 * load. Only node's own modules, paths.ts, db/image.ts, db/embedded.ts, data-dir-lock.ts and
 * lib/dates.ts are loaded before the worker is on its way, and they are all a worker loads. Before
 * either, the process takes DATA_DIR's lock (data-dir-lock.ts): the embedded database is one process's.
 */
import { mkdirSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import {
  dataDirOf,
  databaseUrlOf,
  demoImageOf,
  pgdataOf,
  sizeThreadPool,
  startTraceOf,
  storageDirOf,
} from './paths.ts';
import { traceStart } from './lib/start-trace.ts';
import { hasCluster, restoreDemoImage, restoreImage, type ImageManifest } from './db/image.ts';
import { openEmbedded, type EarlyEmbedded } from './db/embedded.ts';
import { DataDirLockedError, lockDataDir } from './data-dir-lock.ts';

const TASK = 'esm:restore-image';

interface Task {
  task: typeof TASK;
  pgdata: string;
  /** The file store the demo image's files go to, when the demo image may be used. */
  demoStorage: string | null;
}

/** The unpacking in a worker running this file; its result, the manifest or null, as restoreImage's. */
function restoreInWorker(work: Task): Promise<ImageManifest | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: work });
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

// before anything asynchronous: the modules above only define things when loaded
sizeThreadPool(process.env);

const task = workerData as Task | null;
if (!isMainThread && task?.task === TASK) {
  mkdirSync(task.pgdata, { recursive: true });
  parentPort?.postMessage(
    (task.demoStorage !== null ? restoreDemoImage(task.pgdata, task.demoStorage) : null) ?? restoreImage(task.pgdata),
  );
} else {
  const env = process.env;
  traceStart(startTraceOf(env));
  const dataDir = dataDirOf(env);
  const pgdata = pgdataOf(dataDir);
  let early: EarlyEmbedded | undefined;
  if (!databaseUrlOf(env)) {
    // One process per embedded database, before anything in DATA_DIR is read or written: a
    // second process would open its own copy of the database and lose writes (data-dir-lock.ts).
    try {
      await lockDataDir(dataDir, 'the portal server');
    } catch (e) {
      if (!(e instanceof DataDirLockedError)) throw e;
      console.error(e.message);
      process.exit(1);
    }
    const restored = hasCluster(pgdata)
      ? Promise.resolve(null)
      : restoreInWorker({ task: TASK, pgdata, demoStorage: demoImageOf(env) ? storageDirOf(env, dataDir) : null });
    early = { restored, pglite: restored.then(() => openEmbedded(pgdata)) };
    // awaited by openDatabase; not an unhandled rejection meanwhile
    early.pglite.catch(() => undefined);
  }
  const { start } = await import('./start.ts');
  await start(early);
}
