/**
 * The export's own row XML (workbook.ts `writeRowsXml`) gives the same file as exceljs'
 * Row/Cell path it replaced: the same rows written both ways are unpacked and compared — the
 * worksheet XML byte for byte, and through exceljs' reader every cell (value and type), the bold
 * header, the frozen row and the column widths — with the characters XML makes hard (& < > " ',
 * control characters exceljs drops, emoji, very long text), numbers, columns past Z, short rows,
 * and a batch exceljs must still write itself (a null cell).
 */
import { PassThrough } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  addRowsViaExceljs,
  addSheet,
  appendRows,
  openWorkbook,
  rowXml,
  xmlText,
  type Cell,
} from '../src/lib/workbook.ts';

const COLUMNS = Array.from({ length: 30 }, (_, i) => ({
  header: i % 3 ? `列${i + 1}` : `<H&${i}>`,
  width: 5 + (i % 7) * 3,
}));

const CONTROL = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('') + '\x7f';
const SPECIAL: Cell[][] = [
  [
    'a & b < c > d " e \' f',
    '&amp; &lt; already escaped',
    '<![CDATA[x]]>',
    '</v></c></row>',
    "'quoted'",
    '"dq"',
    '&',
    '<',
    '>',
    '"',
    "'",
  ],
  [`ctl:${CONTROL}:end`, 'tab\there', 'line1\nline2', 'cr\r\nlf', '\u0000', '\u001f\u007f', ' lead and trail ', ''],
  [
    '😀 emoji 👨‍👩‍👧‍👦 family',
    '底盘零件图（冷柜）',
    '𠮷 outside the BMP',
    'é composed é',
    '\u200b zero width',
    '\ufeff bom',
    'ß Ä',
    'נ rtl',
  ],
  ['x'.repeat(40_000), '图'.repeat(20_000), '&'.repeat(5_000)],
  [
    0,
    -0,
    1,
    -1.5,
    0.1 + 0.2,
    123456789012345,
    2 ** 53 + 1,
    1e21,
    1e-7,
    -3.25e-10,
    Number.MAX_SAFE_INTEGER,
    5e-324,
    12.34,
  ],
  ['00123', '=SUM(A1:A2)', '1e5', 'true', 'null', '2024-03-01', '2024-03-01 12:34:56', '-', '+1'],
  Array.from({ length: 30 }, (_, i) => (i % 2 ? i * 1.5 : `c${i}`)),
  [],
  ['only one'],
];

/** Every part of a .xlsx (a zip) by name, inflated: enough of the format to read what exceljs writes. */
function unzip(bytes: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  let end = bytes.length - 22;
  while (end >= 0 && bytes.readUInt32LE(end) !== 0x06054b50) end--;
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    const method = bytes.readUInt16LE(at + 10);
    const size = bytes.readUInt32LE(at + 20);
    const nameLength = bytes.readUInt16LE(at + 28);
    const skip = nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    const local = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + size);
    files.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    at += 46 + skip;
  }
  return files;
}

/** A workbook of `batches` written with `append` (the export's way, or exceljs' own). */
async function workbook(batches: Cell[][][], append: 'appendRows' | 'exceljs'): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise((resolve) => out.on('end', resolve));
  const wb = await openWorkbook(out);
  const sheet = addSheet(wb, '图纸档案信息', COLUMNS);
  for (const batch of batches) {
    if (append === 'appendRows') await appendRows(sheet, batch, out);
    else addRowsViaExceljs(sheet, batch);
  }
  sheet.commit();
  await wb.commit();
  await done;
  return Buffer.concat(chunks);
}

/** What exceljs' reader sees: every cell's value and type, the header's font, the views and the widths. */
async function read(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const cells: [string, unknown, number][] = [];
  ws.eachRow({ includeEmpty: true }, (row) =>
    row.eachCell({ includeEmpty: true }, (cell) => void cells.push([cell.address, cell.value, cell.type])),
  );
  return {
    name: ws.name,
    rowCount: ws.rowCount,
    cells,
    headerFont: ws.getRow(1).getCell(1).font,
    headerStyle: ws.getRow(1).getCell(5).style,
    dataStyle: ws.getRow(2).getCell(1).style,
    views: ws.views,
    widths: ws.columns.map((c) => c.width),
  };
}

const sheetXml = (bytes: Buffer) => unzip(bytes).get('xl/worksheets/sheet1.xml');

describe('xlsx rows written by the export', () => {
  it('gives the same worksheet, byte for byte, and the same cells, header, frozen row and widths as exceljs', async () => {
    const batches = [
      SPECIAL,
      SPECIAL.slice(2),
      Array.from({ length: 1000 }, (_, i) => [`Q/HR ${i}`, i * 0.01, i % 5 ? '' : '作废 & <停用>']),
    ];
    const ours = await workbook(batches, 'appendRows');
    const theirs = await workbook(batches, 'exceljs');
    const xml = sheetXml(ours)!;
    expect(xml).toContain('<sheetData>');
    expect(xml).toBe(sheetXml(theirs));
    expect(unzip(ours).get('xl/styles.xml')).toBe(unzip(theirs).get('xl/styles.xml'));

    const a = await read(ours);
    const b = await read(theirs);
    expect(a).toEqual(b);
    expect(a.rowCount).toBe(1 + SPECIAL.length + SPECIAL.length - 2 + 1000);
    expect(a.headerFont).toMatchObject({ bold: true });
    expect(a.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(a.widths).toEqual(COLUMNS.map((c) => c.width));
    // what the reader gets back is the text less the control characters XML 1.0 cannot carry (and,
    // as before, a CR read back as LF: XML parsers normalise line ends)
    const value = (address: string) => a.cells.find(([at]) => at === address)?.[1];
    expect(value('A2')).toBe(SPECIAL[0]![0]);
    expect(value('A3')).toBe(`ctl:\t\n\n:end`);
    expect(value('A4')).toBe(SPECIAL[2]![0]);
    expect(value('A5')).toBe('x'.repeat(40_000));
    expect(value('E6')).toBe(0.30000000000000004);
    expect(value('AD8')).toBe(43.5);
  });

  it('leaves a batch it cannot render to exceljs, and the file is still the same', async () => {
    const batches: Cell[][][] = [
      [['before', 1]],
      [
        ['a', null as unknown as Cell, 'c'],
        ['d', new Date(Date.UTC(2024, 0, 2)) as unknown as Cell],
      ],
      [['after', 2]],
    ];
    expect(rowXml(3, batches[1]![0]!)).toBeUndefined();
    const ours = await workbook(batches, 'appendRows');
    const theirs = await workbook(batches, 'exceljs');
    expect(sheetXml(ours)).toBe(sheetXml(theirs));
    expect(await read(ours)).toEqual(await read(theirs));
  });

  it('encodes text as exceljs does', () => {
    expect(xmlText('plain 文本')).toBe('plain 文本');
    expect(xmlText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect(xmlText(CONTROL)).toBe('\t\n\r');
    expect(rowXml(7, ['x', 1])).toBe(
      '<row r="7" spans="1:2" x14ac:dyDescent="0.25"><c r="A7" t="str"><v>x</v></c><c r="B7"><v>1</v></c></row>',
    );
    expect(rowXml(7, [])).toBe('');
  });
});
