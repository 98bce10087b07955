/**
 * Concurrent downloads of a large drawing: BENCH_DOWNLOADS (16) clients each download the same
 * 40 MB file at once through file/download on a running server (Postgres, demo data), for a DWG
 * (streamed from storage as stored) and a PDF (read whole and stamped, STAMP_CONCURRENCY at a
 * time, the rest queued). Per case: the server's peak resident memory (VmHWM, reset before the
 * case), the p50 / p95 / slowest download time, and how many failed or came short — and that
 * every download has its delivery row recorded complete.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PDFDocument, StandardFonts, PDFName, PDFRawStream } from 'pdf-lib';
import { Pool } from 'undici';
import { API, login } from './lib/api-client.ts';
import { peakRssMb, resetPeak, rssMb } from './lib/memory.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { startServer, tempDir } from './lib/server.ts';
import { fmt, percentile } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const SIZE = Number(process.env.BENCH_DOWNLOAD_MB ?? 40) * 1e6;

/** A DWG-sized blob: a drawing the portal cannot stamp, served as stored. */
export function dwgBytes(size: number): Buffer {
  const b = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) b.writeUInt32LE((i * 2654435761) >>> 0, i);
  b.write('AC1032', 0, 'latin1');
  return b;
}

/** A PDF drawing of about `size` bytes: three pages of text and a large embedded (incompressible) raster stream, as scanned sheets carry. */
async function pdfBytes(size: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 3; p++)
    doc.addPage([1190, 842]).drawText(`BENCH DRAWING SHEET ${p}`, { x: 60, y: 760, size: 28, font });
  const raster = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) raster.writeUInt32LE((i * 2246822519 + 374761393) >>> 0, i);
  const dict = doc.context.obj({
    Type: 'XObject',
    Subtype: 'Image',
    Width: 1,
    Height: size / 3,
    ColorSpace: 'DeviceRGB',
    BitsPerComponent: 8,
    Length: size,
  });
  const ref = doc.context.register(PDFRawStream.of(dict, raster));
  doc.getPage(0).node.set(PDFName.of('BenchRaster'), ref);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Puts `bytes` into the server's file store and a file row copying a demo drawing's (a new standard code). */
export async function addFile(
  dbUrl: string,
  storageDir: string,
  bytes: Buffer,
  type: 'dwg' | 'pdf',
  code: string,
): Promise<number> {
  const sha = createHash('sha256').update(bytes).digest('hex');
  const file = path.join(storageDir, sha.slice(0, 2), sha.slice(2, 4), sha);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    const r = await c.query<{ id: number }>(
      `INSERT INTO standard_file (standard_code, name, version, version_no, material_code, category, secret_level, status, effective_date, uploader_id, uploader_name, file_name, file_size, file_type, sha256)
       SELECT $1, 'BENCH 大图纸', 'A', 1, material_code, category, secret_level, 'EFFECTIVE', effective_date, uploader_id, uploader_name, $2, $3, $4, $5
       FROM standard_file ORDER BY id LIMIT 1 RETURNING id`,
      [code, `${code}.${type}`, bytes.length, type, sha],
    );
    return r.rows[0]!.id;
  } finally {
    await c.end();
  }
}

async function downloadOnce(http: Pool, cookie: string, id: number): Promise<{ ok: boolean; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await http.request({
      method: 'POST',
      path: `${API}/file/download`,
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ id }),
    });
    let n = 0;
    for await (const chunk of res.body) n += (chunk as Buffer).length;
    return { ok: res.statusCode === 200 && n === Number(res.headers['content-length']), ms: performance.now() - t0 };
  } catch {
    return { ok: false, ms: performance.now() - t0 };
  }
}

export async function run(settings: BenchSettings): Promise<Row[]> {
  const clients = Number(process.env.BENCH_DOWNLOADS ?? settings.clients);
  const db = await createBenchDatabase();
  const data = tempDir('downloads');
  const server = await startServer({
    dataDir: data.dir,
    databaseUrl: db.url,
    env: { SEED_DEMO: 'true', LOG_LEVEL: 'warn' },
  });
  const pid = server.proc.pid!;
  const http = new Pool(server.base, { connections: clients + 2 });
  const rows: Row[] = [];
  try {
    progress(`downloads: preparing a ${fmt(SIZE / 1e6)} MB DWG and PDF`);
    const storageDir = path.join(data.dir, 'files');
    const cases = [
      {
        what: 'DWG (streamed as stored)',
        id: await addFile(db.url, storageDir, dwgBytes(SIZE), 'dwg', 'HR-BENCH-DL-DWG'),
      },
      {
        what: 'PDF (stamped, queued)',
        id: await addFile(db.url, storageDir, await pdfBytes(SIZE), 'pdf', 'HR-BENCH-DL-PDF'),
      },
    ];
    const cookie = await login(http, 'demo3');
    for (const c of cases) {
      await downloadOnce(http, cookie, c.id); // warm: the stamping libraries, the font, the first query plans
      const before = rssMb(pid);
      resetPeak(pid);
      progress(`downloads: ${clients} × ${c.what}`);
      const t0 = performance.now();
      const results = await Promise.all(Array.from({ length: clients }, () => downloadOnce(http, cookie, c.id)));
      const wall = (performance.now() - t0) / 1000;
      const ms = results.map((r) => r.ms);
      rows.push({
        file: c.what,
        MB: fmt(SIZE / 1e6),
        clients,
        failed: results.filter((r) => !r.ok).length,
        'p50 s': fmt(percentile(ms, 50) / 1000, 1),
        'p95 s': fmt(percentile(ms, 95) / 1000, 1),
        'all done s': fmt(wall, 1),
        'RSS before MB': fmt(before),
        'peak RSS MB': fmt(peakRssMb(pid)),
      });
    }
    // every download (the warm-up ones included) has its delivery recorded complete
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const r = await check.query<{ n: string; complete: string }>(
        `SELECT count(*) AS n, count(*) FILTER (WHERE d.complete) AS complete FROM access_log l LEFT JOIN access_delivery d ON d.access_log_id = l.id WHERE l.standard_code LIKE 'HR-BENCH-DL-%' AND l.action = 'DOWNLOAD'`,
      );
      progress(`downloads: ${r.rows[0]!.complete} of ${r.rows[0]!.n} download rows recorded complete`);
    } finally {
      await check.end();
    }
  } finally {
    await http.close();
    await server.stop();
    await db.drop();
    await data.remove();
  }
  return rows;
}
