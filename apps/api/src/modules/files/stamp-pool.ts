/**
 * Stamping off the event loop (issue 16): file/view, print and download stamp their copy in a
 * worker thread (stamp-worker.ts) through Piscina, the Node project's worker pool, instead of on
 * the api's one JavaScript thread. The mixed-workload benchmark found the watermark at 57 % of
 * the api's CPU; on the main thread a 20-page PDF held every other caller for 20–50 ms and a large
 * image for longer.
 *
 * - Threads: one per core beyond the first (at least one, at most four); the first core is the
 *   event loop's. Tasks beyond them queue in the pool, in order.
 * - Memory: pdf-lib, fontkit, the 10 MB CJK font and the canvas addon live in the worker. A worker
 *   idle for IDLE_MS ends and gives that memory back; the next stamp starts one again (~0.5 s).
 * - From source (tests, `pnpm dev`) the worker runs the TypeScript through tsx, as the caller does;
 *   the bundle (scripts/build.mjs) has dist/stamp-worker.mjs beside server.mjs.
 */
import { availableParallelism } from 'node:os';
import Piscina from 'piscina';
import type { FileType } from '@esm/contracts';
import { UnstampableError } from './watermark.ts';
import type { StampResult, StampTask } from './stamp-worker.ts';

const IDLE_MS = 5 * 60_000;

export interface Stamper {
  stamp(bytes: Uint8Array, type: FileType, text: string): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Threads for `cores` cores: the event loop keeps one. */
export const stampThreads = (cores: number) => Math.min(4, Math.max(1, cores - 1));

export function stampPool(threads = stampThreads(availableParallelism())): Stamper {
  const bundled = import.meta.url.endsWith('.mjs');
  let pool: Piscina<StampTask, StampResult> | undefined;
  const started = () =>
    (pool ??= new Piscina<StampTask, StampResult>({
      filename: new URL(bundled ? './stamp-worker.mjs' : './stamp-worker.ts', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: IDLE_MS,
      // one task at a time per thread: a stamp is CPU work, queueing in the thread gains nothing
      concurrentTasksPerWorker: 1,
      ...(bundled ? {} : { execArgv: [...process.execArgv, '--import', 'tsx'] }),
    }));
  return {
    async stamp(bytes, type, text) {
      if (type === 'dwg' || type === 'dxf') return bytes; // served unchanged: their name carries the stamp
      // the file's bytes are copied to the worker (a few MB: ~1 ms against the stamp's 20–500 ms)
      const result = await started().run({ bytes, type, text });
      if (!(result instanceof Uint8Array)) throw new UnstampableError(result.refused);
      return result;
    },
    async close() {
      await pool?.destroy();
      pool = undefined;
    },
  };
}
