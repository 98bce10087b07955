/**
 * A closed-loop load generator: `concurrency` clients, each issuing its next operation as soon
 * as the previous one finished, for a fixed time or a fixed count, whichever comes first. The
 * same loop drives HTTP requests and raw SQL, so their figures compare like with like.
 */
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
