/**
 * Stamping the per-viewer watermark (src/lib/watermark.ts) in a fresh process started like the
 * server (lib/stamp-child.ts): a 20-page A3 vector drawing (the demo drawing generator, 20
 * sheets), a 4000×3000 PNG drawing sheet, and the drawings the mixed workload serves (1–3 A3
 * sheets, a 1200×800 PNG). For each: the first call (which loads the CJK font), the median / p90
 * of the next BENCH_STAMP_REPEATS (20) calls and the process's CPU per stamp.
 * BENCH_STAMP_BASELINE=<an earlier checkout's apps/api>: that tree's watermark measured in turn
 * with this one, A B A B.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { drawingPdf, drawingPng } from '../src/db/demo-drawings.ts';
import { describeStyle, serverStyle } from './lib/run-style.ts';
import { apiDir, tempDir } from './lib/server.ts';
import { fmt, median, percentile } from './lib/stats.ts';
import { progress, type Row } from './lib/types.ts';

/** A 4000×3000 line drawing (frame, parts, centre lines, dimensions, title block) as PNG: what a scanned-and-cleaned drawing sheet looks like. */
async function drawingSheetPng(): Promise<Buffer> {
  const [w, h] = [4000, 3000];
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, w, h);
  ctx.strokeStyle = '#1a1a26';
  ctx.fillStyle = '#1a1a26';
  ctx.lineWidth = 6;
  ctx.strokeRect(60, 60, w - 120, h - 120);
  for (let i = 0; i < 12; i++) {
    const x = 200 + (i % 4) * 900;
    const y = 200 + Math.floor(i / 4) * 800;
    ctx.lineWidth = 4;
    ctx.strokeRect(x, y, 700, 500);
    ctx.beginPath();
    ctx.arc(x + 350, y + 250, 120 + (i % 3) * 30, 0, Math.PI * 2);
    ctx.stroke();
    ctx.lineWidth = 2;
    ctx.setLineDash([40, 10, 8, 10]);
    ctx.beginPath();
    ctx.moveTo(x - 40, y + 250);
    ctx.lineTo(x + 740, y + 250);
    ctx.moveTo(x + 350, y - 40);
    ctx.lineTo(x + 350, y + 540);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.font = '40px sans-serif';
    ctx.fillText(`${700 + i * 5}±0.2`, x + 250, y + 580);
  }
  ctx.lineWidth = 5;
  ctx.strokeRect(w - 1460, h - 460, 1400, 400);
  ctx.font = '80px sans-serif';
  ctx.fillText('HR-BENCH-D4000  REV A', w - 1400, h - 240);
  return canvas.encode('png');
}

/** The inputs, by the label of their rows. */
const INPUTS = [
  ['PDF, 20 A3 vector sheets', 'pdf', 'drawing-20-pages.pdf'],
  ['PNG, 4000×3000 drawing sheet', 'png', 'sheet-4000x3000.png'],
  ["PDF, 1–3 A3 sheets (the mix's drawings, in turn)", 'pdf', 'drawing-%-pages.pdf'],
  ["PNG, 1200×800 (the mix's image)", 'png', 'artwork-1200x800.png'],
] as const;

interface ChildResult {
  text: string;
  out: Record<string, { inBytes: number; outBytes: number; firstMs: number; nextMs: number[]; cpuMs: number }>;
}

export async function run(): Promise<Row[]> {
  const repeats = Number(process.env.BENCH_STAMP_REPEATS ?? 20);
  // an earlier checkout's apps/api (e.g. a git worktree of the previous release, installed): measured in turn with this one
  const baseline = process.env.BENCH_STAMP_BASELINE;
  const dir = tempDir('stamp');
  try {
    const sheets = (pages: number) =>
      drawingPdf({
        standardCode: `HR-BENCH-D${String(pages).padStart(3, '0')}`,
        version: 'A',
        materialCode: '0001000001',
        caption: pages > 3 ? 'TWENTY SHEET ASSEMBLY' : 'BENCHMARK DRAWING',
        secretLevel: 'SECRET',
        pages,
      });
    const file = (name: string) => path.join(dir.dir, name);
    for (const pages of [1, 2, 3, 20]) await writeFile(file(`drawing-${pages}-pages.pdf`), await sheets(pages));
    await writeFile(file('sheet-4000x3000.png'), await drawingSheetPng());
    await writeFile(file('artwork-1200x800.png'), await drawingPng({ standardCode: 'HR-BENCH-D004', version: 'A' }));
    const groups = INPUTS.map(([label, type, name]) => ({
      label,
      keys: (name.includes('%') ? [1, 2, 3].map((n) => name.replace('%', String(n))) : [name]).map(
        (n) => `${type}:${file(n)}`,
      ),
    }));
    const args = groups.flatMap((g) => g.keys);

    const style = serverStyle();
    progress(`stamping in a fresh process (${describeStyle(style)}), ${repeats} repeats each`);
    const child = async (module?: string): Promise<ChildResult> => {
      const proc = spawn(
        process.execPath,
        [...style.flags, '--import', 'tsx', 'bench/lib/stamp-child.ts', String(repeats), ...args],
        {
          cwd: apiDir,
          env: { ...process.env, ...style.env, ...(module ? { STAMP_MODULE: module } : {}) },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve));
      if (code !== 0) throw new Error(`stamp child exited ${code}`);
      return JSON.parse(out) as ChildResult;
    };
    const builds = [
      ...(baseline ? [{ name: `baseline (${baseline})`, module: path.resolve(baseline, 'src/lib/watermark.ts') }] : []),
      { name: 'this build', module: undefined },
    ];
    // with a baseline, A B A B: a neighbour's load weighs on both alike
    const rounds = baseline ? 2 : 1;
    const results = builds.map(() => [] as ChildResult[]);
    for (let round = 0; round < rounds; round++)
      for (const [i, b] of builds.entries()) {
        progress(`${b.name}, round ${round + 1} of ${rounds}`);
        results[i]!.push(await child(b.module));
      }
    progress(`watermark text: ${results.at(-1)![0]!.text}`);

    const rows: Row[] = [];
    const cpuOf = (i: number, keys: string[]) =>
      results[i]!.reduce((t, r) => t + keys.reduce((u, k) => u + r.out[k]!.cpuMs, 0) / keys.length, 0) /
      results[i]!.length;
    for (const { label, keys } of groups) {
      for (const [i, b] of builds.entries()) {
        const all = results[i]!.flatMap((r) => keys.map((k) => r.out[k]!));
        const next = all.flatMap((s) => s.nextMs);
        const cpu = cpuOf(i, keys);
        rows.push({
          input: label,
          build: b.name,
          'in KB': fmt(median(all.map((s) => s.inBytes)) / 1024),
          'stamped KB': fmt(median(all.map((s) => s.outBytes)) / 1024),
          'first call ms (loads the font)': fmt(median(all.map((s) => s.firstMs))),
          'next calls': next.length,
          'median ms': fmt(median(next)),
          'p90 ms': fmt(percentile(next, 90)),
          'CPU ms per stamp': fmt(cpu, 2),
          'CPU vs baseline': i > 0 ? `${fmt((cpu / cpuOf(0, keys)) * 100)} %` : '',
        });
      }
    }
    return rows;
  } finally {
    await dir.remove();
  }
}
