/**
 * Memory of another process, from /proc: its resident set (VmRSS), the peak since a reset
 * (VmHWM after writing 5 to clear_refs), a split of the resident pages by kind (smaps), and what
 * memory-probe.mjs, preloaded into it, reports from inside (V8 heap, external, ArrayBuffers).
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MB = 1024;

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} for pid ${pid}`);
  return Number(m[1]);
}

/** Resident set now, in MB. */
export const rssMb = (pid: number) => status(pid, 'VmRSS') / MB;
/** Peak resident set since the last resetPeak (or the start), in MB. */
export const peakRssMb = (pid: number) => status(pid, 'VmHWM') / MB;
/** Starts a new peak from the current resident set (Linux ≥ 4.0; needs the same user). */
export const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

export interface RssSplit {
  /** Pages of mapped files (the node binary, shared libraries, native addons). */
  files: number;
  /**
   * WebAssembly linear memories: V8 reserves each with a guard region of 8–10 GiB that is never
   * accessible (---p); the memory itself is the read-write mapping right before it.
   */
  wasm: number;
  /** Everything else anonymous: V8's heap pages, malloc arenas, thread stacks. */
  anon: number;
}

/** Resident MB of a process by kind (reads /proc/<pid>/smaps, a few ms). */
export function rssSplit(pid: number): RssSplit {
  const out: RssSplit = { files: 0, wasm: 0, anon: 0 };
  let prev: { rss: number; rw: boolean } | undefined;
  let cur: { size: number; perms: string; file: boolean } | undefined;
  const close = (rss: number) => {
    if (!cur) return;
    const guard = cur.perms.startsWith('---') && cur.size >= 4 * 1024 ** 3;
    if (guard && prev?.rw) {
      out.anon -= prev.rss; // the memory before the guard was counted as anonymous: move it
      out.wasm += prev.rss;
    }
    if (cur.file) out.files += rss;
    else out.anon += rss;
    prev = { rss, rw: cur.perms.startsWith('rw') && !cur.file };
  };
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (head) {
      cur = {
        size: parseInt(head[2]!, 16) - parseInt(head[1]!, 16),
        perms: head[3]!,
        file: head[4] !== '0' && !head[5]!.startsWith('['),
      };
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) close(Number(rss[1]));
  }
  return { files: out.files / MB, wasm: out.wasm / MB, anon: out.anon / MB };
}

export interface Sampler {
  /** Highest VmRSS and WebAssembly MB seen while sampling, and the split at the highest RSS sample. */
  stop(): { peakRss: number; peakWasm: number; atPeak: RssSplit | undefined; samples: number };
}

/** Samples VmRSS every `everyMs` and the smaps split every 10th sample. */
export function sampleMemory(pid: number, everyMs = 10): Sampler {
  let peakRss = 0;
  let peakWasm = 0;
  let atPeak: RssSplit | undefined;
  let n = 0;
  const tick = () => {
    try {
      const rss = rssMb(pid);
      if (n++ % 10 === 0 || rss > peakRss) {
        const split = rssSplit(pid);
        peakWasm = Math.max(peakWasm, split.wasm);
        if (rss > peakRss) atPeak = split;
      }
      peakRss = Math.max(peakRss, rss);
    } catch {
      // the process is gone: keep what was seen
    }
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      return { peakRss, peakWasm, atPeak, samples: n };
    },
  };
}

/** NODE_OPTIONS that preload the probe writing to `file`. */
export function probeOptions(file: string): Record<string, string> {
  const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs');
  return { NODE_OPTIONS: `--import=${pathToFileURL(probe).href}`, MEM_PROBE_FILE: file };
}

type Usage = Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>;

/** Asks the probe in `pid` for its peaks since the previous call (and the values now), in MB. */
export async function readProbe(pid: number, file: string): Promise<{ peak: Usage; now: Usage; afterGc?: Usage }> {
  const before = existsSync(file) ? statSync(file).mtimeMs : 0;
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 500; i++) {
    if (existsSync(file) && statSync(file).size > 0) {
      try {
        const raw = JSON.parse(readFileSync(file, 'utf8')) as { peak: Usage; now: Usage; afterGc?: Usage };
        const mb = (u: Usage) => Object.fromEntries(Object.entries(u).map(([k, v]) => [k, v / 1024 / 1024])) as Usage;
        return { peak: mb(raw.peak), now: mb(raw.now), afterGc: raw.afterGc && mb(raw.afterGc) };
      } catch {
        // caught mid-write: read again
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`memory probe in pid ${pid} did not answer (file ${file}, previous ${before})`);
}
