/**
 * The api's JSON answers go compressed to a client that accepts it (br first, else gzip), above
 * 1 KB; smaller answers, clients that accept neither, and every call answering a file's bytes go
 * as they are — a download keeps its Content-Length and its delivery record counts every byte.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { filesApi, menuApi, sessionApi } from '@esm/contracts';
import { COMPRESS_THRESHOLD } from '../src/plugins/compression.ts';
import { buildTestApp, callApi, login } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, tempStorage } from './factories.ts';

const files = await tempStorage();
const t = await buildTestApp({ storage: files.storage });
const staff = await login(t.app, 'demo3');
afterAll(async () => {
  await t.close();
  await files.remove();
});

const accepting = (encoding: string) => ({ headers: { 'accept-encoding': encoding } });

describe('JSON answers', () => {
  it('the menu (several KB) goes as br to a browser, as gzip to a client with only gzip, plain to one with neither; the JSON is the same', async () => {
    const plain = await callApi(t.app, menuApi.roleFunction, undefined, staff);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.byteLength).toBeGreaterThan(COMPRESS_THRESHOLD);

    const br = await callApi(t.app, menuApi.roleFunction, undefined, staff, accepting('gzip, deflate, br, zstd'));
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.byteLength).toBeLessThan(plain.rawPayload.byteLength / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gz = await callApi(t.app, menuApi.roleFunction, undefined, staff, accepting('gzip'));
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('an answer under 1 KB goes as it is, even to a browser', async () => {
    const res = await callApi(t.app, sessionApi.current, undefined, staff, accepting('gzip, br'));
    expect(res.status).toBe(200);
    expect(res.rawPayload.byteLength).toBeLessThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().success).toBe(true);
  });
});

describe('a file call', () => {
  it("a download to a browser that accepts br: the file's own bytes with their Content-Length, the delivery recorded complete", async () => {
    const line = await createProductLine(t.db.prisma);
    const material = await createMaterial(t.db.prisma, line.code);
    // text-like bytes a compressor would shrink a lot
    const bytes = Buffer.from('0 SECTION 2 ENTITIES 0 LINE 8 0 10 0.0 20 0.0 11 1.0 21 1.0\n'.repeat(2000));
    const file = await createFileVersion(t.db.prisma, files.storage, {
      materialCode: material.code,
      type: 'dxf',
      bytes,
    });
    const res = await callApi(t.app, filesApi.download, { id: file.id }, staff, accepting('gzip, deflate, br, zstd'));
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(bytes.byteLength);
    expect(res.rawPayload.equals(bytes)).toBe(true);
    const log = await t.db.prisma.accessLog.findFirstOrThrow({
      where: { fileId: file.id, action: 'DOWNLOAD' },
      orderBy: { id: 'desc' },
    });
    const delivery = await t.db.prisma.accessDelivery.findUniqueOrThrow({ where: { accessLogId: log.id } });
    expect(delivery).toMatchObject({
      complete: true,
      bytesSent: BigInt(bytes.byteLength),
      bytesTotal: BigInt(bytes.byteLength),
    });
  });
});
