/**
 * The stamped copy's PNG encoder: what it writes decodes back to the same pixels, and a stamp
 * keeps an image's transparency (straight alpha asked for where the source may have any).
 */
import { describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodePng, unpremultiply } from './png-encode.ts';
import { stampFile } from './watermark.ts';

async function pixels(png: Uint8Array) {
  const img = await loadImage(Buffer.from(png));
  const canvas = createCanvas(img.width, img.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return { width: img.width, height: img.height, data: ctx.getImageData(0, 0, img.width, img.height).data };
}

describe('encodePng', () => {
  it('decodes back to the same pixels, alpha included', async () => {
    const rgba = new Uint8Array([
      ...[255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255],
      ...[10, 20, 30, 0, 200, 100, 50, 255, 255, 255, 255, 255],
    ]);
    const png = await encodePng(rgba, 3, 2);
    const back = await pixels(png);
    expect([back.width, back.height]).toEqual([3, 2]);
    // a fully transparent pixel has no colour to keep
    expect([...back.data].map((v, i) => (i >= 12 && i < 16 ? (i === 15 ? v : 0) : v))).toEqual(
      [...rgba].map((v, i) => (i >= 12 && i < 16 ? (i === 15 ? v : 0) : v)),
    );
    await expect(encodePng(rgba, 4, 2)).rejects.toThrow(/expected 32 bytes/);
  });

  it('makes premultiplied pixels straight: opaque ones as they are, translucent ones divided by alpha', () => {
    const px = new Uint8Array([10, 20, 30, 255, 0, 0, 0, 0, 100, 50, 25, 128]);
    expect([...unpremultiply(px)]).toEqual([10, 20, 30, 255, 0, 0, 0, 0, 199, 100, 50, 128]);
  });
});

describe('a stamped PNG', () => {
  it('keeps its transparent ground transparent and its opaque parts opaque', async () => {
    const canvas = createCanvas(400, 300);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#d00000';
    ctx.fillRect(0, 0, 200, 300); // the left half red, the right half transparent
    const stamped = await stampFile(await canvas.encode('png'), 'png', 'ACME demo2 2026-11-22 10:30 127.0.0.1');
    const { data } = await pixels(stamped);
    const alpha = (x: number, y: number) => data[(y * 400 + x) * 4 + 3]!;
    const left = [...Array(300).keys()].map((y) => alpha(50, y));
    const right = [...Array(300).keys()].map((y) => alpha(350, y));
    expect(left.every((a) => a === 255)).toBe(true);
    expect(right.filter((a) => a === 0).length).toBeGreaterThan(150); // the ground, between the stamp's lines
    expect(right.some((a) => a > 0)).toBe(true); // the stamp itself
    const red = data[(150 * 400 + 50) * 4]!;
    expect(red).toBeGreaterThan(150);
  });
});
