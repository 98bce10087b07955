/**
 * The process's Prometheus metrics (prom-client). One registry per process — a process is one
 * replica, and Prometheus tells replicas apart by the address it scrapes — so any module can
 * count into the named metrics below with one line, e.g. `bytesServed.inc({ action }, n)`, and
 * plugins/observability.ts serves them all at /esm-server/metrics.
 *
 * Figures that live elsewhere (a pool's connections, a queue's length) are read when Prometheus
 * scrapes, through `collect`, instead of being pushed on every change: the scrape sees the state
 * at that moment and the hot paths pay nothing.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();

// process CPU, memory, heap, handles and the event loop's lag (nodejs_eventloop_lag_*)
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'esm_http_requests_total',
  help: 'Requests answered, by method, route pattern (never the raw URL) and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'esm_http_request_duration_seconds',
  help: 'Time from receiving a request to its answer, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  // list calls take milliseconds, a stamped 40 MB download seconds
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Bytes of stored files sent to clients (view, print, download), by action. */
export const bytesServed = new Counter({
  name: 'esm_file_bytes_served_total',
  help: 'Bytes of drawings and attachments sent to clients, by action (view, print, download)',
  labelNames: ['action'] as const,
  registers: [registry],
});

/** Refused password sign-ins, by reason (rate_limited, bad_credentials, disabled, no_portal_type). */
export const loginRefusals = new Counter({
  name: 'esm_login_refusals_total',
  help: 'Refused sign-ins, by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});

/** What the housekeeping did, by task and kind (the file store sweep: moved to quarantine, restored, purged, temporary removed). */
export const sweepResults = new Counter({
  name: 'esm_sweep_results_total',
  help: 'Files and rows the housekeeping moved, restored or removed, by task and kind',
  labelNames: ['task', 'kind'] as const,
  registers: [registry],
});

/** Housekeeping rounds, by task and result (ok, failed). */
export const sweepRuns = new Counter({
  name: 'esm_sweep_runs_total',
  help: 'Housekeeping rounds, by task and result',
  labelNames: ['task', 'result'] as const,
  registers: [registry],
});

let stampQueueSource: (() => number) | undefined;

/**
 * Files waiting for a stamping slot. The stamping queue either sets it (`stampQueueLength.set(n)`)
 * or hands its length over once with `reportStampQueue(() => queue.length)`, read on each scrape.
 */
export const stampQueueLength = new Gauge({
  name: 'esm_stamp_queue_length',
  help: 'Files waiting for a stamping slot',
  registers: [registry],
  collect() {
    if (stampQueueSource) this.set(stampQueueSource());
  },
});

export function reportStampQueue(source: () => number): void {
  stampQueueSource = source;
}

/** The part of a `pg` Pool the gauges read. */
interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

const pools = new Map<string, PoolCounts>();

export const dbPoolConnections = new Gauge({
  name: 'esm_db_pool_connections',
  help: 'Connections of a Postgres pool: total (open), idle, and waiting (callers queued for a connection)',
  labelNames: ['pool', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset(); // a closed pool's figures go with it
    for (const [pool, p] of pools) {
      this.set({ pool, state: 'total' }, p.totalCount);
      this.set({ pool, state: 'idle' }, p.idleCount);
      this.set({ pool, state: 'waiting' }, p.waitingCount);
    }
  },
});

/** Reports a `pg` pool's connections on every scrape; returns the call that stops it (at close). */
export function watchPool(name: string, pool: PoolCounts): () => void {
  pools.set(name, pool);
  return () => {
    if (pools.get(name) === pool) pools.delete(name);
  };
}
