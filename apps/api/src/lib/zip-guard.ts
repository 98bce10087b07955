/**
 * What an uploaded .xlsx (a zip) would become once unpacked, measured before any parser sees it.
 *
 * The upload limit counts compressed bytes; a few kilobytes of deflate can unpack to gigabytes, and
 * the Excel readers hold what they unpack (shared strings, or the whole sheet when it comes before
 * them). So every entry is inflated here with a cap on what it may produce (`maxOutputLength`, so a
 * size the archive declares falsely changes nothing), and the file is refused past `maxUnpacked`
 * bytes in all or `maxEntries` entries. Stored (0) and deflated (8) entries only, no zip64: what
 * Excel, WPS and exceljs write.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipLimits {
  maxUnpacked: number;
  maxEntries: number;
}

export type ZipVerdict = { ok: true; unpacked: number } | { ok: false; reason: 'not-zip' | 'too-large' | 'too-many' };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The end-of-central-directory record's offset, or -1 (it sits in the last 22 + 65,535 bytes). */
function eocdAt(b: Buffer): number {
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 0xffff); i--) if (b.readUInt32LE(i) === EOCD) return i;
  return -1;
}

/** `inspect` sees each entry's name and unpacked content (to look into the parts a reader would expand). */
export function checkZip(b: Buffer, limits: ZipLimits, inspect?: (name: string, content: Buffer) => void): ZipVerdict {
  if (b.length < 22) return { ok: false, reason: 'not-zip' };
  const end = eocdAt(b);
  if (end < 0) return { ok: false, reason: 'not-zip' };
  const entries = b.readUInt16LE(end + 10);
  if (entries > limits.maxEntries) return { ok: false, reason: 'too-many' };
  let at = b.readUInt32LE(end + 16);
  let unpacked = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > b.length || b.readUInt32LE(at) !== CENTRAL) return { ok: false, reason: 'not-zip' };
    const method = b.readUInt16LE(at + 10);
    const packed = b.readUInt32LE(at + 20);
    const local = b.readUInt32LE(at + 42);
    const name = b.subarray(at + 46, at + 46 + b.readUInt16LE(at + 28)).toString();
    at += 46 + b.readUInt16LE(at + 28) + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
    if (packed === 0xffffffff || local + 30 > b.length || b.readUInt32LE(local) !== LOCAL)
      return { ok: false, reason: 'not-zip' };
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    if (start + packed > b.length) return { ok: false, reason: 'not-zip' };
    const left = limits.maxUnpacked - unpacked;
    let content: Buffer;
    if (method === 0) content = b.subarray(start, start + packed);
    else if (method === 8) {
      try {
        content = inflateRawSync(b.subarray(start, start + packed), { maxOutputLength: left + 1 });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { ok: false, reason: 'too-large' };
        return { ok: false, reason: 'not-zip' };
      }
    } else return { ok: false, reason: 'not-zip' };
    unpacked += content.length;
    if (unpacked > limits.maxUnpacked) return { ok: false, reason: 'too-large' };
    inspect?.(name, content);
  }
  return { ok: true, unpacked };
}
