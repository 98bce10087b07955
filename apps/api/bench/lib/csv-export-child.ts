/**
 * The yardstick of the export benchmark, run as its own process the way the server runs
 * (`node --import tsx`, the app's Prisma client from src/db/database.ts): the same rows as the
 * Excel export — the same query, in the same keyset batches (fileBatches), the same columns and
 * formatting (EXPORT_COLUMNS) — written as CSV to a file, waiting for the file to drain.
 *
 * Protocol: env DATABASE_URL, EXPORT_FILTER (JSON FileFilter), CSV_OUT; prints `ready` once the
 * database is open and warm, starts on a line from stdin, prints one JSON line {rows, bytes, ms},
 * and exits on the next line (so the benchmark can read its memory probe first).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import os from 'node:os';
import { openDatabase } from '../../src/db/database.ts';
import { fileBatches, type FileFilter } from '../../src/modules/archives/file-query.ts';
import { EXPORT_COLUMNS } from '../../src/modules/export/service.ts';

const csvCell = (v: string | number) =>
  typeof v === 'number' ? String(v) : /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
const csvLine = (cells: (string | number)[]) => `${cells.map(csvCell).join(',')}\r\n`;

const filter = JSON.parse(process.env.EXPORT_FILTER ?? '{}') as FileFilter;
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: os.tmpdir() });
// warm the client and the query path as the server's warm-up export does
for await (const _ of fileBatches(db.prisma, { ...filter, materialCode: '0001000001' }, {}, 10)) break;
process.stdout.write('ready\n');
await once(process.stdin, 'data');

const t0 = performance.now();
const out = createWriteStream(process.env.CSV_OUT!);
out.write(`\uFEFF${csvLine(EXPORT_COLUMNS.map((c) => c.header))}`); // BOM: Excel reads the file as UTF-8
let rows = 0;
for await (const batch of fileBatches(db.prisma, filter, {}, 1000)) {
  if (!out.write(batch.map((r) => csvLine(EXPORT_COLUMNS.map((c) => c.value(r)))).join(''))) await once(out, 'drain');
  rows += batch.length;
}
out.end();
await finished(out);
process.stdout.write(`${JSON.stringify({ rows, bytes: out.bytesWritten, ms: performance.now() - t0 })}\n`);
await once(process.stdin, 'data');
await db.close();
process.exit(0);
