/**
 * A PNG encoder for the stamped copy of an image: 8-bit RGBA rows with no filter, deflated by
 * node's zlib at level 2 off the main thread. Skia's encoder (@napi-rs/canvas' `encode('png')`,
 * which has no options) tries every filter on every row and deflates at level 6: for a
 * 1200 × 800 drawing with the watermark it spent ~56 ms of CPU for 241 KB, this ~12 ms for
 * 186 KB — line drawings on a white ground deflate well without filters
 * (docs/benchmarks.md, archive-stamp).
 */
import { crc32, deflate } from 'node:zlib';
import { promisify } from 'node:util';

const deflateAsync = promisify(deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The bytes of a PNG's unfiltered rows before deflate: each row's pixels after a filter byte. */
export const pngRowsLength = (width: number, height: number): number => (width * 4 + 1) * height;

/**
 * `rgba`: width × height pixels, 4 bytes each (straight, not premultiplied, alpha), row by row.
 * `rows`: a buffer of pngRowsLength bytes to lay the rows out in (the caller's, kept from one
 * copy to the next; not touched again once the promise settles), else one is allocated.
 */
export async function encodePng(rgba: Uint8Array, width: number, height: number, rows?: Buffer): Promise<Buffer> {
  const stride = width * 4;
  if (rgba.length !== stride * height)
    throw new Error(`expected ${stride * height} bytes of pixels, got ${rgba.length}`);
  if (rows && rows.length !== pngRowsLength(width, height))
    throw new Error(`expected a row buffer of ${pngRowsLength(width, height)} bytes, got ${rows.length}`);
  rows ??= Buffer.allocUnsafe(pngRowsLength(width, height));
  for (let y = 0; y < height; y++) {
    rows[y * (stride + 1)] = 0; // filter type 0: none
    rows.set(rgba.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  const idat = await deflateAsync(rows, { level: 2 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', new Uint8Array(0))]);
}
