/**
 * The stamped copy's PNG encoder: what it writes decodes back to the same pixels, and a stamp
 * keeps an image's transparency (straight alpha asked for where the source may have any).
 */
import { describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodePng } from './png-encode.ts';
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

  it("keeps a translucent colour as it was (straight alpha, not the canvas' premultiplied)", async () => {
    const canvas = createCanvas(400, 300);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgba(199, 100, 50, 0.5)';
    ctx.fillRect(0, 0, 400, 300);
    const stamped = await stampFile(await canvas.encode('png'), 'png', 'ACME demo2 2026-11-22 10:30 127.0.0.1');
    const { data } = await pixels(stamped);
    const ground = [...Array(400 * 300).keys()].filter((p) => data[p * 4 + 3] === 128);
    expect(ground.length).toBeGreaterThan(400 * 150); // most of it, between the stamp's lines
    // premultiplied it would be about half (100, 50, 25); each decode to a canvas rounds by 1–2
    for (const p of ground.slice(0, 1000)) {
      expect(Math.abs(data[p * 4]! - 199)).toBeLessThanOrEqual(3);
      expect(Math.abs(data[p * 4 + 1]! - 100)).toBeLessThanOrEqual(3);
      expect(Math.abs(data[p * 4 + 2]! - 50)).toBeLessThanOrEqual(3);
    }
  });

  it('is drawn from its own image alone when several of one size are stamped in turn (images and surfaces are reused)', async () => {
    const solid = async (colour: string, width = 320) => {
      const canvas = createCanvas(320, 240);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = colour;
      ctx.fillRect(0, 0, width, 240);
      return canvas.encode('png');
    };
    const red = await solid('#d00000');
    const blue = await solid('#0000d0');
    const halfRed = await solid('#d00000', 160); // the right half transparent
    const stamped = async (png: Uint8Array) =>
      (await pixels(await stampFile(png, 'png', 'ACME demo2 2026-11-22 10:30 127.0.0.1'))).data;
    for (const [png, rgb] of [
      [red, [208, 0, 0]],
      [blue, [0, 0, 208]],
      [red, [208, 0, 0]],
      [blue, [0, 0, 208]],
    ] as const)
      expect([...(await stamped(png)).subarray(0, 3)]).toEqual(rgb);
    // after opaque copies of its size, the transparent half is still transparent: nothing left over
    const half = await stamped(halfRed);
    const rightAlpha = [...Array(240).keys()].map((y) => half[(y * 320 + 300) * 4 + 3]!);
    expect(rightAlpha.filter((a) => a === 0).length).toBeGreaterThan(120);
  });

  it('refuses a damaged image each time it is asked, not only the first', async () => {
    const png = new Uint8Array(await createCanvas(64, 64).encode('png'));
    const damaged = png.slice(0, 60); // the header intact, the pixels cut off
    for (let i = 0; i < 2; i++) await expect(stampFile(damaged, 'png', 'x')).rejects.toThrow(/图片文件已损坏/);
  });
});
