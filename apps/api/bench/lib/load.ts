/**
 * Load generators. closedLoop: `concurrency` clients, each issuing its next operation as soon
 * as the previous one finished, for a fixed time or a fixed count, whichever comes first. The
 * same loop drives HTTP requests and raw SQL, so their figures compare like with like.
 * openLoop: operations arrive at a given rate whether or not earlier ones have finished, as
 * independent users do — the way to find the rate a server sustains (a closed loop slows its
 * arrivals down as the server slows, and hides the queue).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { arrivalGapMs } from './capacity.ts';
import type { CpuMeter } from './cpu.ts';
import { fmt, percentile } from './stats.ts';

export interface LoadOptions {
  concurrency: number;
  /** Measured phase length. */
  durationMs: number;
  /** Hard cap on measured operations (the loop stops at whichever limit comes first). */
  maxOps?: number;
  /** Unmeasured operations first, to warm JITs, caches and connection pools. */
  warmupOps?: number;
  /** CPU metered over the measured phase only. */
  meter?: CpuMeter;
}

export interface LoadResult {
  ops: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** CPU ms per operation (successful or not) of the metered app process and database backends. */
  appCpuMsPerOp?: number;
  dbCpuMsPerOp?: number;
  firstError?: string;
}

/** Runs `op(client)` in a closed loop; an op that throws counts as an error (its latency is not recorded). */
export async function closedLoop(op: (client: number) => Promise<void>, opts: LoadOptions): Promise<LoadResult> {
  const { concurrency, durationMs, maxOps = Number.MAX_SAFE_INTEGER, warmupOps = 0, meter } = opts;

  let warm = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (warm < warmupOps) {
        warm++;
        await op(client);
      }
    }),
  );

  await meter?.start();
  const latencies: number[] = [];
  let started = 0;
  let errors = 0;
  let firstError: string | undefined;
  const t0 = performance.now();
  const end = t0 + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (started < maxOps && performance.now() < end) {
        started++;
        const s = performance.now();
        try {
          await op(client);
          latencies.push(performance.now() - s);
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = await meter?.stop();
  const n = latencies.length + errors;
  return {
    ops: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    appCpuMsPerOp: cpu && n ? cpu.app / n : undefined,
    dbCpuMsPerOp: cpu?.db !== undefined && n ? cpu.db / n : undefined,
    firstError,
  };
}

/** One table row for a load result. */
export function loadRow(what: string, target: string, r: LoadResult, concurrency: number, rateDigits = 0) {
  return {
    benchmark: what,
    database: target,
    clients: concurrency,
    ops: r.ops,
    errors: r.errors,
    'ops/s': fmt(r.perSecond, rateDigits),
    'p50 ms': fmt(r.p50Ms, 2),
    'p99 ms': fmt(r.p99Ms, 2),
    'app CPU ms/op': r.appCpuMsPerOp === undefined ? '—' : fmt(r.appCpuMsPerOp, 2),
    'db CPU ms/op': r.dbCpuMsPerOp === undefined ? '—' : fmt(r.dbCpuMsPerOp, 2),
  };
}

/** One operation of an open loop: what it was, and its latency from its scheduled arrival. */
export interface Sample {
  what: string;
  ms: number;
  ok: boolean;
  error?: string;
}

export interface OpenLoopResult {
  samples: Sample[];
  /** Arrivals fired. */
  offered: number;
  /** From the first arrival to the last one fired. */
  firingSeconds: number;
  /** From the first arrival to the last answer (the drain included, so a backlog shows as a lower rate). */
  seconds: number;
  /** The loop stopped firing because more than `maxBacklog` operations were outstanding. */
  overloaded: boolean;
}

/**
 * Fires `next()` at Poisson arrivals of `perSecond` for `durationMs`, then waits for the
 * outstanding ones. Latency counts from the scheduled arrival, not from when the generator got
 * round to it, so a late generator or a queue in the client shows in the figures instead of
 * hiding (no coordinated omission). A step that builds more than `maxBacklog` outstanding
 * operations has failed already: it stops firing rather than drain minutes of queue.
 */
export async function openLoop(
  next: () => { what: string; run: () => Promise<void> },
  opts: { perSecond: number; durationMs: number; rand: () => number; maxBacklog: number },
): Promise<OpenLoopResult> {
  const samples: Sample[] = [];
  const pending = new Set<Promise<void>>();
  let offered = 0;
  let overloaded = false;
  const t0 = performance.now();
  for (
    let at = t0 + arrivalGapMs(opts.perSecond, opts.rand);
    at - t0 < opts.durationMs;
    at += arrivalGapMs(opts.perSecond, opts.rand)
  ) {
    const wait = at - performance.now();
    if (wait >= 1) await sleep(wait);
    if (pending.size > opts.maxBacklog) {
      overloaded = true;
      break;
    }
    const { what, run } = next();
    const scheduled = at;
    offered++;
    const p: Promise<void> = run().then(
      () => void samples.push({ what, ms: performance.now() - scheduled, ok: true }),
      (err: unknown) =>
        void samples.push({
          what,
          ms: performance.now() - scheduled,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        }),
    );
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  const firingSeconds = (performance.now() - t0) / 1000;
  await Promise.all(pending);
  return { samples, offered, firingSeconds, seconds: (performance.now() - t0) / 1000, overloaded };
}
