/**
 * Stamping needs the whole file in memory (pdf-lib parses the PDF, the canvas decodes the image)
 * and a stamped copy several times its size while it is made, so stamps run a few at a time: the
 * rest wait in a queue instead of each holding their file, and N concurrent large downloads
 * cannot exhaust the process's memory. Files that are not stamped (DWG/DXF and other types)
 * never enter it: they stream from storage. p-limit keeps the queue (a well-kept, tiny library
 * with the counts a metrics endpoint wants).
 */
import pLimit from 'p-limit';

const limit = pLimit(2);

/** How many stamps may run at once (config STAMP_CONCURRENCY); the process has one queue. */
export function setStampConcurrency(n: number): void {
  limit.concurrency = n;
}

/** Stamps waiting for their turn (for metrics). */
export const stampQueueLength = (): number => limit.pendingCount;

/** Runs `work` (read and stamp one file) when a stamping slot is free. */
export const whenStampSlotFree = <T>(work: () => Promise<T>): Promise<T> => limit(work);
