/**
 * What an uploaded file is: its extension must name an accepted type AND its first bytes must
 * be that type's signature — a renamed executable or a PDF called .png is refused.
 */
import type { FileType } from '@esm/contracts';

export const UNSUPPORTED_TYPE_MESSAGE = '文件类型不支持，仅支持 PDF、PNG、JPG、DWG、DXF';

const BY_EXTENSION: Record<string, FileType> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  dwg: 'dwg',
  dxf: 'dxf',
};

/** How many leading bytes `typeOfContent` needs to decide. */
export const SNIFF_BYTES = 64;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function typeOfName(fileName: string): FileType | null {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? null : (BY_EXTENSION[fileName.slice(dot + 1).toLowerCase()] ?? null);
}

/** Whether the leading bytes are those of `type`. */
export function contentIs(type: FileType, head: Buffer): boolean {
  switch (type) {
    case 'pdf':
      return head.subarray(0, 5).toString('latin1') === '%PDF-';
    case 'png':
      return head.subarray(0, 8).equals(PNG);
    case 'jpg':
      return head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
    case 'dwg':
      // AutoCAD's version tag: AC1012 (R13) … AC1032 (2018+)
      return head.subarray(0, 4).toString('latin1') === 'AC10';
    case 'dxf': {
      // ASCII DXF: group code 0, then SECTION; editors add a BOM, blank lines, spaces or CRLF
      const text = head.toString('latin1').replace(/^\xef\xbb\xbf/, '');
      return /^\s*0[ \t]*\r?\n\s*SECTION\b/.test(text);
    }
  }
}

/** A file name as uploaded, minus any path (both separators) and control characters, ≤ 255. */
export function cleanFileName(raw: string, type: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!clean || clean === '.' || clean === '..') return `未命名.${type}`;
  if (clean.length <= 255) return clean;
  const dot = clean.lastIndexOf('.');
  const ext = dot > 0 ? clean.slice(dot) : '';
  return clean.slice(0, 255 - ext.length) + ext;
}
