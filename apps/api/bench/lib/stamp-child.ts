/**
 * Stamping timed in a fresh process, as a just-started server would stamp: the first call of
 * each kind pays for loading the CJK font (10 MB TrueType, parsed once per process) or
 * registering it with the canvas; the next ones are the steady state.
 *
 *   node --import tsx bench/lib/stamp-child.ts <pdf> <png> <repeats>   → one JSON line on stdout
 */
import { readFile } from 'node:fs/promises';
import { stampImage, stampPdf, watermarkText } from '../../src/lib/watermark.ts';

const [pdfPath, pngPath, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg ?? 20);
/** No case may run away: at most this long for the repeats of one kind. */
const BUDGET_MS = 120_000;

const text = watermarkText({
  supplierName: '青岛海达精密机械有限公司',
  account: 'demo2',
  at: new Date(),
  ip: '10.0.0.2',
});

async function timed(fn: () => Promise<Uint8Array>): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, bytes: out.byteLength };
}

async function series(fn: () => Promise<Uint8Array>) {
  const first = await timed(fn);
  const next: number[] = [];
  const t0 = performance.now();
  while (next.length < repeats && performance.now() - t0 < BUDGET_MS) next.push((await timed(fn)).ms);
  return { firstMs: first.ms, outBytes: first.bytes, nextMs: next };
}

const pdf = new Uint8Array(await readFile(pdfPath!));
const png = new Uint8Array(await readFile(pngPath!));
const result = {
  text,
  pdf: { inBytes: pdf.byteLength, ...(await series(() => stampPdf(pdf, text))) },
  png: { inBytes: png.byteLength, ...(await series(() => stampImage(png, 'png', text))) },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
