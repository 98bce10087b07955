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

/** `rgba`: width × height pixels, 4 bytes each (straight, not premultiplied, alpha), row by row. */
export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  if (rgba.length !== stride * height)
    throw new Error(`expected ${stride * height} bytes of pixels, got ${rgba.length}`);
  const rows = Buffer.allocUnsafe((stride + 1) * height);
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

/**
 * A canvas' pixels (premultiplied alpha, as @napi-rs/canvas' `data()` gives them) made straight,
 * in place: an opaque pixel — all of a drawing, usually — is the same either way and is only
 * looked at; a transparent one has no colour; a translucent one is divided by its alpha.
 */
export function unpremultiply(rgba: Uint8Array): Uint8Array {
  for (let i = 3; i < rgba.length; i += 4) {
    const a = rgba[i]!;
    if (a === 255 || a === 0) continue;
    for (let c = i - 3; c < i; c++) rgba[c] = Math.min(255, Math.round((rgba[c]! * 255) / a));
  }
  return rgba;
}
