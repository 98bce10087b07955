/**
 * Stamping the per-viewer watermark (src/lib/watermark.ts) in a fresh process started like the
 * server (lib/stamp-child.ts): a 20-page A3 vector drawing (the demo drawing generator, 20
 * sheets) and a 4000×3000 PNG drawing sheet. For each: the first call (which loads the CJK font)
 * and the median / p90 of the next BENCH_STAMP_REPEATS (20) calls.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { drawingPdf } from '../src/db/demo-drawings.ts';
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

export async function run(): Promise<Row[]> {
  const repeats = Number(process.env.BENCH_STAMP_REPEATS ?? 20);
  const dir = tempDir('stamp');
  try {
    const pdfPath = path.join(dir.dir, 'drawing-20-pages.pdf');
    const pngPath = path.join(dir.dir, 'sheet-4000x3000.png');
    await writeFile(
      pdfPath,
      await drawingPdf({
        standardCode: 'HR-BENCH-D020',
        version: 'A',
        materialCode: '0001000001',
        caption: 'TWENTY SHEET ASSEMBLY',
        secretLevel: 'SECRET',
        pages: 20,
      }),
    );
    await writeFile(pngPath, await drawingSheetPng());

    const style = serverStyle();
    progress(`stamping in a fresh process (${describeStyle(style)}), ${repeats} repeats each`);
    const child = spawn(
      process.execPath,
      [...style.flags, '--import', 'tsx', 'bench/lib/stamp-child.ts', pdfPath, pngPath, String(repeats)],
      {
        cwd: apiDir,
        env: { ...process.env, ...style.env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`stamp child exited ${code}`);
    const r = JSON.parse(out) as Record<
      'pdf' | 'png',
      { inBytes: number; outBytes: number; firstMs: number; nextMs: number[] }
    > & { text: string };
    progress(`watermark text: ${r.text}`);

    const row = (what: string, s: (typeof r)['pdf']): Row => ({
      input: what,
      'in KB': fmt(s.inBytes / 1024),
      'stamped KB': fmt(s.outBytes / 1024),
      'first call ms (loads the font)': fmt(s.firstMs),
      'next calls': s.nextMs.length,
      'median ms': fmt(median(s.nextMs)),
      'p90 ms': fmt(percentile(s.nextMs, 90)),
      'min ms': fmt(Math.min(...s.nextMs)),
    });
    return [row('PDF, 20 A3 vector sheets', r.pdf), row('PNG, 4000×3000 drawing sheet', r.png)];
  } finally {
    await dir.remove();
  }
}
