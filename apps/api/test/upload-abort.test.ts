/**
 * An interrupted upload: a client that goes away in the middle of the file part leaves
 * neither a row without a file nor a file (or a temporary file) kept forever; bytes a crash left
 * behind are swept once they are old (modules/maintenance/plugin.ts). The upload runs over a real socket
 * (app.inject cannot hang up halfway).
 */
import { readdir, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepStorage, STORAGE_LITTER_AGE_MS } from '../src/modules/maintenance/plugin.ts';
import { buildTestApp, login, type TestApp } from './helpers.ts';
import { createFileVersion, createMaterial, createProductLine, samplePdf, tempStorage, unique } from './factories.ts';
import { API_BASE, archivesApi, filesApi } from '@esm/contracts';

let files: Awaited<ReturnType<typeof tempStorage>>;
let t: TestApp;
let cookie: string;
let materialCode: string;
let port: number;

beforeAll(async () => {
  files = await tempStorage();
  t = await buildTestApp({ storage: files.storage });
  materialCode = (await createMaterial(t.db.prisma, (await createProductLine(t.db.prisma)).code)).code;
  cookie = await login(t.app, 'demo3');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await t.close();
  await files.remove();
});

/** Every file under the storage folder (relative paths). */
async function storedFiles(dir = files.dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await storedFiles(p)).map((x) => path.join(e.name, x)));
    else out.push(e.name);
  }
  return out;
}
const tmpFiles = async () => (await storedFiles()).filter((f) => f.startsWith(`tmp${path.sep}`));

/** Polls a state (a bounded number of looks, each after the event loop had its turn). */
async function until(check: () => Promise<boolean>, what: string, tries = 4000) {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never reached: ${what}`);
}

describe('a client that hangs up in the middle of the file', () => {
  it('leaves no row, no stored file and no temporary file; the next upload works', async () => {
    const standardCode = `Q/ABORT-${unique()}`;
    const boundary = '----esm-abort';
    const head = Buffer.from(
      [
        ['standardCode', standardCode],
        ['name', '中断上传'],
        ['version', 'A'],
        ['materialCode', materialCode],
        ['category', 'DRAWING'],
        ['secretLevel', 'SECRET'],
        ['effectiveDate', '2026-03-15'],
      ]
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const firstBytes = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(512 * 1024, 0x20)]);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    socket.write(
      `POST /esm-server/api/haier/standardFile/upload HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 8 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(firstBytes);
    // the bytes are on their way into the store …
    await until(
      async () =>
        (await tmpFiles()).length > 0 &&
        (await stat(path.join(files.dir, (await tmpFiles())[0]!)).catch(() => null))?.size !== 0,
      'a temporary file with bytes',
    );
    // … when the client goes away
    socket.destroy();
    await until(async () => (await tmpFiles()).length === 0, 'the temporary file removed');
    expect(await storedFiles()).toEqual([]);
    expect(await t.db.prisma.standardFile.count({ where: { standardCode } })).toBe(0);

    // the server is fine: the same upload, complete, goes through
    const pdf = Buffer.from(await samplePdf(1));
    const body = Buffer.concat([head, pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const ok = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/${archivesApi.upload.path}`,
      payload: body,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await t.db.prisma.standardFile.count({ where: { standardCode } })).toBe(1);
    expect(await tmpFiles()).toEqual([]);
  });
});

describe('what a crash leaves behind is swept once old', () => {
  it('a day-old temporary file goes, day-old bytes without a row go to quarantine; fresh ones and referenced ones stay', async () => {
    const old = new Date(Date.now() - STORAGE_LITTER_AGE_MS - 60_000);
    const tmpDir = path.join(files.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    await writeFile(path.join(tmpDir, 'crashed-upload'), 'half a file');
    await utimes(path.join(tmpDir, 'crashed-upload'), old, old);
    await writeFile(path.join(tmpDir, 'upload-in-progress'), 'still coming');

    const orphan = await files.storage.put(
      (await import('node:stream')).Readable.from([Buffer.from('bytes whose row never committed')]),
      1 << 20,
    );
    const fresh = await files.storage.put(
      (await import('node:stream')).Readable.from([Buffer.from('bytes whose row is being written')]),
      1 << 20,
    );
    const kept = await createFileVersion(t.db.prisma, files.storage, {
      materialCode,
      type: 'pdf',
      bytes: await samplePdf(1),
    });
    const at = (sha: string) => path.join(files.dir, sha.slice(0, 2), sha.slice(2, 4), sha);
    await utimes(at(orphan.sha256), old, old);
    await utimes(at(kept.sha256), old, old);

    expect(await sweepStorage(t.db.prisma, files.storage, { quarantineDays: 30, lock: true })).toEqual({
      temporary: 1,
      moved: 1,
      restored: 0,
      purged: 0,
    });
    // quarantined, not deleted (removed only after STORAGE_QUARANTINE_DAYS: test/storage.test.ts)
    expect(await files.storage.size(orphan.sha256)).toBe(null);
    expect(await readdir(path.join(files.dir, 'quarantine'))).toEqual([orphan.sha256]);
    expect(await files.storage.exists(fresh.sha256)).toBe(true);
    expect(await files.storage.exists(kept.sha256)).toBe(true);
    expect((await readdir(tmpDir)).sort()).toEqual(['upload-in-progress']);
    // the file with a row still opens
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${API_BASE}/${filesApi.view.path}`,
          payload: { id: kept.id },
          headers: { cookie },
        })
      ).statusCode,
    ).toBe(200);
  });
});
