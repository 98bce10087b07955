/**
 * The BOM import: a 20,000-line .xlsx over S001's seven materials (each level-2 line
 * with four level-3 lines), checked (confirm=false) and then imported (confirm=true) through
 * supplier/bomlevel/importBom on a running server; the time of each and the server's peak
 * resident memory (VmHWM, reset before each step). Then the first page of the tree
 * (searchBomLevelList, ten materials with all their lines) and its size, and a re-import of the
 * same file (every line replaced).
 */
import ExcelJS from 'exceljs';
import { Pool } from 'undici';
import { BOM_COLUMNS } from '@esm/contracts';
import { API, login } from './lib/api-client.ts';
import { peakRssMb, resetPeak, rssMb } from './lib/memory.ts';
import { createBenchDatabase } from './lib/postgres.ts';
import { startServer, tempDir } from './lib/server.ts';
import { fmt } from './lib/stats.ts';
import { progress, type BenchSettings, type Row } from './lib/types.ts';

const LINES = 20_000;
const MATERIALS = ['0064000101', '0064000102', '0064000103', '0034000201', '0034000202', '0011000301', '0011000302'];
const VENDORS = [
  '91310115MA1H7K3X2A',
  '91330206MA2CJ8L41B',
  '91370214MA3D2N5P7C',
  '91330281MA2H4R6T8D',
  '91440606MA4W1K2Y3E',
];

/** The workbook: level-2 lines each followed by four level-3 lines, round-robin over the materials. */
async function workbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('BOM导入');
  sheet.addRow(BOM_COLUMNS.map((c) => c.header));
  let n = 0;
  for (let i = 0; n < LINES; i++) {
    const material = MATERIALS[i % MATERIALS.length]!;
    const vendor = (k: number) => [
      `次级供应商${k % VENDORS.length}有限公司`,
      VENDORS[k % VENDORS.length]!,
      '浙江省宁波市',
      '联系人',
      '13800001111',
    ];
    const parent = `P${String(i).padStart(6, '0')}`;
    sheet.addRow([material, '', parent, `二级子件${i}`, '规格 A', 2, '个', '是', ...vendor(i)]);
    n++;
    for (let j = 0; j < 4 && n < LINES; j++, n++)
      sheet.addRow([
        material,
        parent,
        `${parent}-${j}`,
        `三级子件${i}-${j}`,
        '',
        0.25,
        'kg',
        '否',
        ...vendor(i + j + 1),
      ]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function upload(
  base: string,
  cookie: string,
  bytes: Buffer,
  confirm: boolean,
): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.append('confirm', String(confirm));
  form.append('file', new Blob([new Uint8Array(bytes)]), 'bom-20000.xlsx');
  const res = await fetch(`${base}${API}/supplier/bomlevel/importBom`, {
    method: 'POST',
    body: form,
    headers: { cookie },
  });
  return { status: res.status, body: await res.text() };
}

export async function run(_settings: BenchSettings): Promise<Row[]> {
  progress('bom-import: writing the 20,000-line workbook');
  const bytes = await workbook();
  const db = await createBenchDatabase();
  const server = await startServer({ dataDir: tempDir('bom').dir, databaseUrl: db.url, env: { SEED_DEMO: 'true' } });
  const pid = server.proc.pid!;
  const http = new Pool(server.base, { connections: 2 });
  const rows: Row[] = [];
  try {
    const cookie = await login(http, 'demo2');
    const step = async (what: string, f: () => Promise<{ status: number; body: string }>) => {
      const before = rssMb(pid);
      resetPeak(pid);
      const t0 = performance.now();
      const res = await f();
      const seconds = (performance.now() - t0) / 1000;
      if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.body.slice(0, 300)}`);
      rows.push({
        step: what,
        lines: LINES,
        'file MB': fmt(bytes.length / 1e6, 2),
        'response KB': fmt(res.body.length / 1024),
        seconds: fmt(seconds, 2),
        'RSS before MB': fmt(before),
        'peak RSS MB': fmt(peakRssMb(pid)),
      });
      progress(`bom-import: ${what} ${seconds.toFixed(2)} s`);
    };
    await step('check only (confirm=false)', () => upload(server.base, cookie, bytes, false));
    await step('import (confirm=true, empty BOM)', () => upload(server.base, cookie, bytes, true));
    await step('tree: first page (10 materials, all lines)', async () => {
      const res = await fetch(`${server.base}${API}/supplier/bomlevel/searchBomLevelList`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: '{}',
      });
      return { status: res.status, body: await res.text() };
    });
    await step('re-import (every line replaced)', () => upload(server.base, cookie, bytes, true));
  } finally {
    await http.close();
    await server.stop();
    await db.drop();
  }
  return rows;
}
