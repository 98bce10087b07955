/** One line of a benchmark's Markdown table: column name → cell. */
export type Row = Record<string, string | number>;

/** The knobs every benchmark reads (from the environment, see run.ts). */
export interface BenchSettings {
  /** Repetitions for start-up timings (median reported). */
  runs: number;
  /** Measured seconds per throughput case. */
  seconds: number;
  /** Concurrent clients for throughput cases. */
  clients: number;
}

/** Progress goes to stderr so stdout is only the Markdown report. */
export const progress = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);
