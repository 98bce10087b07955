/**
 * Archive test data, each piece fresh and uniquely named so test files never see each
 * other's rows: product lines, materials, suppliers and who supplies what, grants in every
 * state, file versions whose real bytes sit in a test storage folder, agreement acceptances.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { FileStatus, FileType } from '@esm/contracts';
import type { Db } from '../src/db/database.ts';
import { localStorage, type Storage } from '../src/lib/storage.ts';
import { currentAgreement } from '../src/modules/files/access.ts';
import { createUser } from './helpers.ts';
import type { Database } from '../src/db/database.ts';

let seq = 0;
/** A short unique suffix (time + counter), upper-case for codes. */
export const unique = () => `${Date.now().toString(36)}${(seq++).toString(36)}`.toUpperCase();

const DAY = 86_400_000;

// ---- storage -----------------------------------------------------------------------------------

/**
 * A storage folder of the test file's own; `remove()` deletes it. With TEST_STORAGE=s3 the store is
 * a bucket of its own on an S3 server (s3rver) the test file starts on first use and stops when its
 * last store is removed: the upload suites run once against S3 that way (`dir` is then an empty
 * folder, for the few tests that look into the local folder itself).
 */
export async function tempStorage(): Promise<{ storage: Storage; dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'esm-files-'));
  const removeDir = () => rm(dir, { recursive: true, force: true });
  if (process.env.TEST_STORAGE !== 's3') return { storage: localStorage(dir), dir, remove: removeDir };
  const { startS3Server } = await import('./s3-server.ts');
  const { s3Storage } = await import('../src/lib/storage/s3.ts');
  s3Server ??= startS3Server();
  const server = await s3Server;
  s3Users++;
  const settings = await server.newBucket(`files-${unique().toLowerCase()}`);
  return {
    storage: s3Storage(settings),
    dir,
    async remove() {
      await removeDir();
      if (--s3Users === 0) {
        s3Server = undefined;
        await server.remove();
      }
    },
  };
}
let s3Server: Promise<import('./s3-server.ts').TestS3Server> | undefined;
let s3Users = 0;

// ---- sample bytes --------------------------------------------------------------------------------

/** A small multi-page A4 PDF with a line of text per page. */
export async function samplePdf(pages = 3): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Drawing sheet ${i} of ${pages}`, { x: 50, y: 780, size: 18, font, color: rgb(0, 0, 0) });
    page.drawRectangle({ x: 40, y: 40, width: 515, height: 700, borderColor: rgb(0, 0, 0), borderWidth: 1 });
  }
  return doc.save();
}

/** A PNG of a plain drawing frame. */
export async function samplePng(width = 640, height = 400): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.strokeStyle = '#000000';
  ctx.strokeRect(20, 20, width - 40, height - 40);
  return canvas.encode('png');
}

/** A minimal ASCII DXF (one line entity). */
export function sampleDxf(): Buffer {
  return Buffer.from(
    [
      '0',
      'SECTION',
      '2',
      'ENTITIES',
      '0',
      'LINE',
      '8',
      '0',
      '10',
      '0.0',
      '20',
      '0.0',
      '11',
      '100.0',
      '21',
      '50.0',
      '0',
      'ENDSEC',
      '0',
      'EOF',
      '',
    ].join('\r\n'),
    'ascii',
  );
}

// ---- archive data --------------------------------------------------------------------------------

export async function createProductLine(db: Db) {
  const code = `PL${unique()}`;
  return db.productLine.create({ data: { code, name: `测试产品线${code}` } });
}

export async function createMaterial(db: Db, productLineCode: string) {
  const code = `M${unique()}`;
  return db.material.create({
    data: { code, name: `测试物料${code}`, spec: 'Φ20×100', productLineCode, purchaser: '采购员甲' },
  });
}

export async function createSupplier(db: Db, label = '测试') {
  const code = `S${unique()}`;
  return db.supplier.create({ data: { code, name: `${label}精密制造有限公司${code}` } });
}

/** Records that the supplier supplies the material. */
export function linkSupplier(db: Db, supplierCode: string, materialCode: string) {
  return db.supplierMaterial.create({ data: { supplierCode, materialCode } });
}

/** A fresh product line, supplier and `n` fresh materials the supplier supplies. */
export async function supplierSupplying(db: Db, n: number) {
  const line = await createProductLine(db);
  const supplier = await createSupplier(db);
  const materials = [];
  for (let i = 0; i < n; i++) {
    const m = await createMaterial(db, line.code);
    await linkSupplier(db, supplier.code, m.code);
    materials.push(m);
  }
  return { line, supplier, materials };
}

export type GrantKind = 'valid' | 'expired' | 'future' | 'revoked';

/** A grant in the given state relative to now. */
export function createGrant(db: Db, supplierCode: string, materialCode: string, kind: GrantKind = 'valid') {
  const now = Date.now();
  const window = {
    valid: [now - 30 * DAY, now + 30 * DAY],
    expired: [now - 60 * DAY, now - 10 * DAY],
    future: [now + 10 * DAY, now + 60 * DAY],
    revoked: [now - 30 * DAY, now + 30 * DAY],
  }[kind];
  return db.empowerGrant.create({
    data: {
      supplierCode,
      materialCode,
      validFrom: new Date(window[0]!),
      validUntil: new Date(window[1]!),
      revokedAt: kind === 'revoked' ? new Date(now - DAY) : null,
      createdBy: 'demo3',
    },
  });
}

export interface FileVersionInput {
  materialCode: string;
  type: FileType;
  bytes: Uint8Array;
  status?: FileStatus;
  standardCode?: string;
  name?: string;
  version?: string;
  /** Leave the bytes out of storage (a file "missing on disk"). */
  skipStorage?: boolean;
}

/** A file version whose bytes are put into `storage` (content-addressed, as an upload would). */
export async function createFileVersion(db: Db, storage: Storage, input: FileVersionInput) {
  const { sha256, size } = input.skipStorage
    ? {
        sha256: (await import('node:crypto')).createHash('sha256').update(input.bytes).digest('hex'),
        size: input.bytes.byteLength,
      }
    : await storage.put(Readable.from([Buffer.from(input.bytes)]), 50 << 20);
  const standardCode = input.standardCode ?? `Q/ESM-${unique()}`;
  const last = await db.standardFile.findFirst({
    where: { standardCode },
    orderBy: { versionNo: 'desc' },
    select: { versionNo: true },
  });
  const versionNo = (last?.versionNo ?? 0) + 1;
  // any drawing administrator uploads (demo3 in the seeded demo data)
  const uploader = await db.user.findFirstOrThrow({ where: { type: { in: [3, 7, 8, 9] } }, orderBy: { id: 'asc' } });
  return db.standardFile.create({
    data: {
      standardCode,
      name: input.name ?? `测试图纸${standardCode}`,
      version: input.version ?? `V${versionNo}.0`,
      versionNo,
      materialCode: input.materialCode,
      category: 'DRAWING',
      secretLevel: 'SECRET',
      status: input.status ?? 'EFFECTIVE',
      effectiveDate: new Date('2026-01-01T00:00:00Z'),
      uploaderId: uploader.id,
      uploaderName: uploader.name,
      fileName: `${standardCode.replace(/\W+/g, '_')}.${input.type}`,
      fileSize: size,
      fileType: input.type,
      sha256,
      obsoletedAt: input.status === 'OBSOLETE' ? new Date() : null,
      obsoleteReason: input.status === 'OBSOLETE' ? '测试作废' : null,
    },
  });
}

// ---- users and the agreement ---------------------------------------------------------------------

/** A supplier user (type 2 unless given) of the supplier; password DEMO_PASSWORD. */
export function createSupplierUser(database: Database, supplierCode: string, type: 2 | 4 = 2) {
  return createUser(database, { type, supplierCode, prefix: 'sup' });
}

/** Records that the user accepted the agreement in force (as insertKeepsecret would). */
export async function acceptCurrentAgreement(db: Db, userId: number, supplierCode: string) {
  const agreement = await currentAgreement(db);
  if (!agreement) throw new Error('no agreement: test/global-setup.ts seeds version 1');
  return db.keepsecretAcceptance.create({ data: { agreementId: agreement.id, userId, supplierCode } });
}

/** Publishes a new agreement version; returns it and how to withdraw it again. */
export async function publishAgreement(db: Db) {
  const last = await currentAgreement(db);
  const agreement = await db.keepsecretAgreement.create({
    data: {
      version: (last?.version ?? 0) + 1,
      title: '图纸及技术资料保密协议（修订版）',
      content: '第一条 修订后的保密条款……',
    },
  });
  return {
    agreement,
    async withdraw() {
      await db.keepsecretAcceptance.deleteMany({ where: { agreementId: agreement.id } });
      await db.keepsecretAgreement.delete({ where: { id: agreement.id } });
    },
  };
}

/** The access_log rows of one user, oldest first. */
export function logsOf(db: Db, userId: number) {
  return db.accessLog.findMany({ where: { userId }, orderBy: { id: 'asc' } });
}

// ---- uploads --------------------------------------------------------------------------------------

/** A part of a multipart form: a field, or a file. */
export interface Part {
  name: string;
  value?: string;
  file?: { filename: string; bytes: Uint8Array; type?: string };
}

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----vitest${unique()}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if (p.file) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: ${p.file.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(Buffer.from(p.file.bytes), Buffer.from('\r\n'));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The entries of a zip (stored or deflated), by name: to take an .xlsx apart in a test. */
export function unzipEntries(b: Buffer): Map<string, Buffer> {
  let end = b.length - 22;
  while (b.readUInt32LE(end) !== 0x06054b50) end--;
  const out = new Map<string, Buffer>();
  let at = b.readUInt32LE(end + 16);
  for (let n = b.readUInt16LE(end + 10); n > 0; n--) {
    const method = b.readUInt16LE(at + 10);
    const packed = b.readUInt32LE(at + 20);
    const nameLength = b.readUInt16LE(at + 28);
    const name = b.subarray(at + 46, at + 46 + nameLength).toString();
    const local = b.readUInt32LE(at + 42);
    at += 46 + nameLength + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const data = b.subarray(start, start + packed);
    out.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
  }
  return out;
}

/** A zip of these entries, each deflated: to put an .xlsx back together (or make one up) in a test. */
export function zipOf(entries: Map<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name);
    const packed = deflateRawSync(content);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(content), 14);
    head.writeUInt32LE(packed.length, 18);
    head.writeUInt32LE(content.length, 22);
    head.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += head.length + nameBytes.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.size, 8);
  end.writeUInt16LE(entries.size, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}
