/**
 * The bytes of the demo archive's files, generated at seed time so a fresh installation has
 * real drawings to view, print and download: multi-page vector PDFs laid out like engineering
 * drawings (frame, zones, a part with centre lines and dimensions, a title block), a PNG and an
 * ASCII DXF. The PDF text is Latin on purpose — embedding the 10 MB CJK font in every demo PDF
 * would make the first start slow; the Chinese names live in the archive rows.
 */
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

export interface DrawingSheetInfo {
  standardCode: string;
  version: string;
  materialCode: string;
  /** Latin caption for the title block (the Chinese name is the row's). */
  caption: string;
  secretLevel: string;
  pages: number;
}

const A3: [number, number] = [1190.55, 841.89];
const INK = rgb(0.1, 0.1, 0.15);
const THIN = 0.6;

function frame(page: PDFPage, font: PDFFont) {
  const [w, h] = A3;
  page.drawRectangle({ x: 10, y: 10, width: w - 20, height: h - 20, borderColor: INK, borderWidth: THIN });
  page.drawRectangle({ x: 35, y: 20, width: w - 55, height: h - 40, borderColor: INK, borderWidth: 1.6 });
  // zone marks: 8 columns (1-8), 6 rows (A-F)
  for (let i = 1; i < 8; i++) {
    const x = 35 + ((w - 55) / 8) * i;
    page.drawLine({ start: { x, y: h - 20 }, end: { x, y: h - 28 }, thickness: THIN, color: INK });
    // the title block sits on the bottom edge at the right
    if (x < w - 440) page.drawLine({ start: { x, y: 20 }, end: { x, y: 28 }, thickness: THIN, color: INK });
  }
  for (let i = 0; i < 8; i++)
    page.drawText(String(i + 1), { x: 35 + ((w - 55) / 8) * (i + 0.5), y: h - 18, size: 7, font, color: INK });
  for (let i = 0; i < 6; i++)
    page.drawText('ABCDEF'[i]!, { x: 24, y: 20 + ((h - 40) / 6) * (5 - i + 0.5), size: 7, font, color: INK });
}

function titleBlock(page: PDFPage, font: PDFFont, bold: PDFFont, info: DrawingSheetInfo, sheet: number) {
  const [w] = A3;
  const x0 = w - 20 - 420;
  const y0 = 20;
  const rows: [string, string][] = [
    ['DWG NO.', info.standardCode],
    ['TITLE', info.caption],
    ['MATERIAL', info.materialCode],
    ['REV.', info.version],
    ['CLASS', info.secretLevel],
    ['SHEET', `${sheet} / ${info.pages}`],
  ];
  const rowH = 18;
  page.drawRectangle({ x: x0, y: y0, width: 420, height: rowH * rows.length + 26, borderColor: INK, borderWidth: 1.2 });
  rows.forEach(([label, value], i) => {
    const y = y0 + rowH * (rows.length - 1 - i);
    page.drawLine({ start: { x: x0, y: y + rowH }, end: { x: x0 + 420, y: y + rowH }, thickness: THIN, color: INK });
    page.drawText(label, { x: x0 + 6, y: y + 5, size: 8, font, color: INK });
    page.drawText(value, {
      x: x0 + 86,
      y: y + 5,
      size: label === 'DWG NO.' ? 11 : 9,
      font: label === 'DWG NO.' ? bold : font,
      color: INK,
    });
  });
  page.drawLine({
    start: { x: x0 + 80, y: y0 },
    end: { x: x0 + 80, y: y0 + rowH * rows.length },
    thickness: THIN,
    color: INK,
  });
  page.drawText('ESM DRAWING ARCHIVE  -  CONFIDENTIAL', {
    x: x0 + 6,
    y: y0 + rowH * rows.length + 8,
    size: 10,
    font: bold,
    color: INK,
  });
  page.drawText('SCALE 1:2   UNIT mm   TOLERANCE ISO 2768-m', { x: 45, y: 30, size: 8, font, color: INK });
}

function arrowDimension(page: PDFPage, font: PDFFont, x1: number, x2: number, y: number, text: string) {
  page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness: 0.5, color: INK });
  for (const [x, d] of [
    [x1, 1],
    [x2, -1],
  ] as const) {
    page.drawLine({ start: { x, y }, end: { x: x + 7 * d, y: y + 2.5 }, thickness: 0.5, color: INK });
    page.drawLine({ start: { x, y }, end: { x: x + 7 * d, y: y - 2.5 }, thickness: 0.5, color: INK });
    page.drawLine({ start: { x, y: y - 8 }, end: { x, y: y + 30 }, thickness: 0.3, color: INK });
  }
  page.drawText(text, { x: (x1 + x2) / 2 - 12, y: y + 4, size: 9, font, color: INK });
}

/** One view of a part: an outline with a bore pattern, centre lines and two dimensions. */
function partView(page: PDFPage, font: PDFFont, sheet: number, seed: number) {
  const cx = 420 + (seed % 5) * 12;
  const cy = 470;
  const w = 380 + (seed % 4) * 30;
  const h = 220 + (sheet % 3) * 30;
  page.drawRectangle({ x: cx - w / 2, y: cy - h / 2, width: w, height: h, borderColor: INK, borderWidth: 1.4 });
  page.drawRectangle({
    x: cx - w / 2 + 25,
    y: cy - h / 2 + 25,
    width: w - 50,
    height: h - 50,
    borderColor: INK,
    borderWidth: 0.5,
    borderDashArray: [6, 3],
  });
  const holes = 2 + (seed % 3);
  for (let i = 0; i < holes; i++) {
    const x = cx - w / 2 + (w / (holes + 1)) * (i + 1);
    page.drawCircle({ x, y: cy, size: 14 + sheet * 2, borderColor: INK, borderWidth: 1 });
    page.drawLine({
      start: { x: x - 24, y: cy },
      end: { x: x + 24, y: cy },
      thickness: 0.3,
      color: INK,
      dashArray: [10, 2, 2, 2],
    });
    page.drawLine({
      start: { x, y: cy - 24 },
      end: { x, y: cy + 24 },
      thickness: 0.3,
      color: INK,
      dashArray: [10, 2, 2, 2],
    });
  }
  page.drawLine({
    start: { x: cx - w / 2 - 20, y: cy },
    end: { x: cx + w / 2 + 20, y: cy },
    thickness: 0.3,
    color: INK,
    dashArray: [14, 3, 2, 3],
  });
  arrowDimension(page, font, cx - w / 2, cx + w / 2, cy - h / 2 - 40, `${Math.round(w / 2)}`);
  arrowDimension(
    page,
    font,
    cx - w / 2,
    cx - w / 2 + w / (holes + 1),
    cy + h / 2 + 30,
    `${Math.round(w / (holes + 1) / 2)}`,
  );
  // side view
  const sx = 900;
  page.drawRectangle({ x: sx, y: cy - h / 2, width: 60 + sheet * 10, height: h, borderColor: INK, borderWidth: 1.4 });
  page.drawLine({
    start: { x: sx - 15, y: cy },
    end: { x: sx + 85 + sheet * 10, y: cy },
    thickness: 0.3,
    color: INK,
    dashArray: [14, 3, 2, 3],
  });
  page.drawText(sheet === 1 ? 'FRONT VIEW' : `SECTION ${'ABC'[(sheet - 2) % 3]}-${'ABC'[(sheet - 2) % 3]}`, {
    x: cx - 30,
    y: cy + h / 2 + 60,
    size: 10,
    font,
    color: INK,
  });
  page.drawText('NOTES: 1. DEBURR ALL EDGES.  2. UNTOLERANCED DIMENSIONS PER ISO 2768-m.  3. SURFACE Ra 3.2.', {
    x: 60,
    y: 140,
    size: 8,
    font,
    color: INK,
  });
}

export async function drawingPdf(info: DrawingSheetInfo): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`${info.standardCode} ${info.version}`);
  doc.setCreator('ESM demo seed');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const seed = [...info.standardCode].reduce((a, c) => a + c.charCodeAt(0), 0);
  for (let sheet = 1; sheet <= info.pages; sheet++) {
    const page = doc.addPage(A3);
    frame(page, font);
    partView(page, font, sheet, seed);
    titleBlock(page, font, bold, info, sheet);
  }
  return doc.save();
}

/** A screen-printing artwork of a panel, as a PNG. */
export async function drawingPng(info: Pick<DrawingSheetInfo, 'standardCode' | 'version'>): Promise<Buffer> {
  const canvas = createCanvas(1200, 800);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1200, 800);
  ctx.strokeStyle = '#1a1a26';
  ctx.lineWidth = 3;
  ctx.strokeRect(20, 20, 1160, 760);
  ctx.lineWidth = 2;
  ctx.strokeRect(150, 150, 700, 360);
  ctx.beginPath();
  ctx.arc(700, 330, 90, 0, Math.PI * 2);
  ctx.stroke();
  for (let i = 0; i < 4; i++) ctx.strokeRect(200 + i * 110, 430, 80, 40);
  ctx.setLineDash([12, 4, 3, 4]);
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(120, 330);
  ctx.lineTo(880, 330);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.strokeRect(760, 640, 400, 120);
  ctx.fillStyle = '#1a1a26';
  ctx.font = '28px sans-serif';
  ctx.fillText(`${info.standardCode}  REV ${info.version}`, 780, 710);
  return canvas.encode('png');
}

/** An ASCII DXF (R12 entities): a plate with bores and the drawing number as TEXT. */
export function drawingDxf(info: Pick<DrawingSheetInfo, 'standardCode' | 'version'>): Buffer {
  const g = (code: number, value: string | number) => `${code}\r\n${value}\r\n`;
  const line = (x1: number, y1: number, x2: number, y2: number) =>
    g(0, 'LINE') + g(8, 'OUTLINE') + g(10, x1) + g(20, y1) + g(30, 0) + g(11, x2) + g(21, y2) + g(31, 0);
  const circle = (x: number, y: number, r: number) =>
    g(0, 'CIRCLE') + g(8, 'HOLES') + g(10, x) + g(20, y) + g(30, 0) + g(40, r);
  const body = [
    line(0, 0, 400, 0),
    line(400, 0, 400, 200),
    line(400, 200, 0, 200),
    line(0, 200, 0, 0),
    circle(80, 100, 20),
    circle(200, 100, 30),
    circle(320, 100, 20),
    g(0, 'TEXT') +
      g(8, 'TITLE') +
      g(10, 0) +
      g(20, -40) +
      g(30, 0) +
      g(40, 10) +
      g(1, `${info.standardCode} REV ${info.version}`),
  ].join('');
  return Buffer.from(g(0, 'SECTION') + g(2, 'ENTITIES') + body + g(0, 'ENDSEC') + g(0, 'EOF'), 'ascii');
}
