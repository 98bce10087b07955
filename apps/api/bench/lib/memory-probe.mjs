/**
 * Preloaded into a process under measurement (NODE_OPTIONS=--import <this file>): samples
 * process.memoryUsage() every 10 ms and, on SIGUSR2, writes the peaks since the previous SIGUSR2
 * (and the values now) as JSON to MEM_PROBE_FILE, then starts over. It reads what only the
 * process itself knows — V8 heap, external and ArrayBuffer memory — while the benchmark reads
 * the RSS from /proc. Plain JavaScript, so it loads before (and without) the TypeScript loader.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.MEM_PROBE_FILE;
if (file) {
  let peak = {};
  const sample = () => {
    const m = process.memoryUsage();
    for (const [k, v] of Object.entries(m)) if (!(v <= peak[k])) peak[k] = v;
    return m;
  };
  setInterval(sample, 10).unref();
  process.on('SIGUSR2', () => {
    const now = sample();
    // with --expose-gc and MEM_PROBE_GC=1: also what survives a full collection (live vs garbage)
    const afterGc =
      process.env.MEM_PROBE_GC === '1' && globalThis.gc ? (globalThis.gc(), process.memoryUsage()) : undefined;
    writeFileSync(file, JSON.stringify({ peak, now, afterGc }));
    peak = {};
  });
}
