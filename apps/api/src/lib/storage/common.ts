/**
 * What every file store driver shares: the contract (`Storage`), the key checks, the size meter
 * and the errors a request sees. lib/storage.ts re-exports all of it.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { AppError } from '../../plugins/errors.ts';

/** A stored file's key: the sha256 of its bytes. */
export const KEY = /^[0-9a-f]{64}$/;

/** Where a stored file lives in either driver (`aa/bb/<sha256>`: a folder never holds more than a few hundred files). */
export const contentPath = (sha256: string) => `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
/** The marker that says which database the store belongs to (lib/storage/identity.ts). */
export const MARKER = '.esm-store.json';
export const TMP = 'tmp';
export const QUARANTINE = 'quarantine';

export class FileTooLargeError extends AppError {
  constructor(maxBytes: number) {
    super(413, `文件过大：上限为 ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}

export const invalidKey = () => new AppError(404, '文件标识无效');
export const missing = () => new AppError(404, '文件不存在或已被移除，请联系管理员');

/** Counts of one sweep, for the log line each run writes. */
export interface SweepCounts {
  /** unreferenced stored files moved into quarantine */
  moved: number;
  /** quarantined files referenced again, put back */
  restored: number;
  /** quarantined files past the retention period, removed */
  purged: number;
  /** temporary files (unfinished uploads, probes) removed */
  temporary: number;
}

export interface SweepOptions {
  /** Temporary files and unreferenced stored files younger than this are left alone. */
  olderThanMs: number;
  /** How long a quarantined file is kept before it is removed. */
  quarantineMs: number;
  isReferenced(sha256: string): Promise<boolean>;
  /**
   * The clock ages are judged by (tests move it forward instead of waiting). A file is
   * quarantined at the wall clock's time either way: an object store dates its copies itself.
   */
  now?: number;
}

/** Which database a store belongs to (written by the first start; lib/storage/identity.ts). */
export interface StoreMarker {
  databaseId: string;
  writtenAt: string;
  host: string;
  /** the database id the marker named before an operator let another database adopt the store */
  adoptedFrom?: string;
}

export interface Storage {
  /** `local folder /srv/files` or `S3 bucket esm at http://…`: for log lines and errors. */
  readonly description: string;
  /**
   * Streams the bytes in, hashing as they pass; refuses past maxBytes. Nothing is kept of a
   * refused, failed or aborted upload: the bytes are placed under their sha256 only once complete.
   */
  put(source: Readable, maxBytes: number): Promise<{ sha256: string; size: number }>;
  /** The bytes of a stored file; 404 when the key is malformed or the file is missing. */
  read(sha256: string): Promise<Buffer>;
  stream(sha256: string): Promise<Readable>;
  exists(sha256: string): Promise<boolean>;
  /** Size of a stored file, or null when it is not there (storage:migrate's idempotence check). */
  size(sha256: string): Promise<number | null>;
  /**
   * Never deletes a stored file outright: unreferenced ones older than olderThanMs go to
   * quarantine/<sha256>; a quarantined file referenced again is put back; one quarantined longer
   * than quarantineMs is removed. Temporary files older than olderThanMs are removed.
   */
  sweep(opts: SweepOptions): Promise<SweepCounts>;
  readMarker(): Promise<StoreMarker | null>;
  writeMarker(marker: StoreMarker): Promise<void>;
  /** Writes a small object, reads it back and removes it: throws when the store cannot take an upload. */
  probe(): Promise<void>;
}

/**
 * A pass-through that counts and hashes the bytes and fails past maxBytes. `truncated`: the source
 * says it stopped early (@fastify/multipart truncates instead of failing when its own limit is hit).
 */
export function meter(maxBytes: number) {
  const hash: Hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) return cb(new FileTooLargeError(maxBytes));
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex'), size: () => size };
}

export const truncated = (source: unknown) => Boolean((source as { truncated?: boolean }).truncated);
