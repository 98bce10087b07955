/**
 * Stamping timed in a fresh process, as a just-started server would stamp: the first call of
 * each input pays for loading the CJK font (10 MB TrueType, parsed once per process), registering
 * it with the canvas, and reading the drawing's structure; the next ones are the steady state,
 * each with a copy code of its own as a real copy has. Wall time per call, and the process's CPU
 * (all threads: zlib and the canvas work off the main thread too) per call.
 *
 *   node --import tsx bench/lib/stamp-child.ts <repeats> <type>:<file> …   → one JSON line on stdout
 *
 * STAMP_MODULE: the watermark module to measure (default this tree's src/lib/watermark.ts; an
 * earlier checkout's for a baseline).
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

type Watermark = typeof import('../../src/lib/watermark.ts');
const { stampFile, watermarkText } = (await import(
  process.env.STAMP_MODULE ? pathToFileURL(process.env.STAMP_MODULE).href : '../../src/lib/watermark.ts'
)) as Watermark;

const [repeatsArg, ...inputs] = process.argv.slice(2);
const repeats = Number(repeatsArg ?? 20);
/** No case may run away: at most this long for the repeats of one input. */
const BUDGET_MS = 120_000;

let copies = 0;
const text = () =>
  watermarkText({
    supplierName: '青岛海达精密机械有限公司',
    account: 'demo2',
    at: new Date(),
    ip: '10.0.0.2',
    copyCode: `K7Q${String(++copies).padStart(7, '0')}`,
  });
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const out: Record<string, { inBytes: number; outBytes: number; firstMs: number; nextMs: number[]; cpuMs: number }> = {};
for (const input of inputs) {
  const [type, file] = [input.slice(0, input.indexOf(':')), input.slice(input.indexOf(':') + 1)] as [
    'pdf' | 'png',
    string,
  ];
  const bytes = new Uint8Array(await readFile(file));
  const stamp = () => {
    const t = text();
    return stampFile(bytes, type, t, copies.toString());
  };
  const t0 = performance.now();
  const first = await stamp();
  const firstMs = performance.now() - t0;
  const nextMs: number[] = [];
  const c0 = cpuMs();
  const s0 = performance.now();
  while (nextMs.length < repeats && performance.now() - s0 < BUDGET_MS) {
    const t = performance.now();
    await stamp();
    nextMs.push(performance.now() - t);
  }
  out[input] = {
    inBytes: bytes.byteLength,
    outBytes: first.byteLength,
    firstMs,
    nextMs,
    cpuMs: (cpuMs() - c0) / nextMs.length,
  };
}
process.stdout.write(`${JSON.stringify({ text: text(), out })}\n`);
