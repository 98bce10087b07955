/**
 * The Excel export outside the server, for profiling it (`node --cpu-prof --import tsx
 * bench/lib/xlsx-export-child.ts`): the same rows as archive-export's — writeArchiveWorkbook, as
 * the route calls it — written to a file instead of an HTTP response. Env DATABASE_URL,
 * EXPORT_FILTER (JSON FileFilter), XLSX_OUT; prints one JSON line {rows, bytes, ms} and exits.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import os from 'node:os';
import { openDatabase } from '../../src/db/database.ts';
import { fileBatches, type FileFilter } from '../../src/modules/archives/file-query.ts';
import { writeArchiveWorkbook } from '../../src/modules/export/service.ts';

const filter = JSON.parse(process.env.EXPORT_FILTER ?? '{}') as FileFilter;
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: os.tmpdir() });
// warm the client, the query path and exceljs as the server's warm-up export does
for await (const _ of fileBatches(db.prisma, { ...filter, materialCode: '0001000001' }, {}, 10)) break;
await writeArchiveWorkbook(db.prisma, { ...filter, materialCode: '0001000001' }, {}, createWriteStream(os.devNull));

const t0 = performance.now();
const out = createWriteStream(process.env.XLSX_OUT!);
const rows = await writeArchiveWorkbook(db.prisma, filter, {}, out);
await finished(out);
process.stdout.write(`${JSON.stringify({ rows, bytes: out.bytesWritten, ms: performance.now() - t0 })}\n`);
await db.close();
process.exit(0);
