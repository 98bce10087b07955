/**
 * Uploaded files, content-addressed: a file's bytes live at <dir>/<aa>/<bb>/<sha256>, written
 * once, never inside the database and never under a path a request can steer (design §3). The
 * key is checked to be a sha256 before it touches the file system.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../plugins/errors.ts';

const KEY = /^[0-9a-f]{64}$/;

export class FileTooLargeError extends AppError {
  constructor(maxBytes: number) {
    super(413, `文件过大：上限为 ${Math.round(maxBytes / 1024 / 1024)} MB`);
  }
}

export interface Storage {
  /** Streams the bytes in, hashing as they pass; refuses past maxBytes (nothing is kept then). */
  put(source: Readable, maxBytes: number): Promise<{ sha256: string; size: number }>;
  /** The bytes of a stored file; 404 when the key is malformed or the file is missing. */
  read(sha256: string): Promise<Buffer>;
  stream(sha256: string): Promise<Readable>;
  exists(sha256: string): Promise<boolean>;
}

export function localStorage(dir: string): Storage {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new AppError(404, '文件标识无效');
    return path.join(dir, key.slice(0, 2), key.slice(2, 4), key);
  };
  const missing = () => new AppError(404, '文件不存在或已被移除，请联系管理员');

  return {
    async put(source, maxBytes) {
      const tmpDir = path.join(dir, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (size > maxBytes) return cb(new FileTooLargeError(maxBytes));
          hash.update(chunk);
          cb(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(tmp));
        // @fastify/multipart truncates instead of failing when its own limit is hit
        if ((source as { truncated?: boolean }).truncated) throw new FileTooLargeError(maxBytes);
        const sha256 = hash.digest('hex');
        const target = fileOf(sha256);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
        return { sha256, size };
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async read(sha256) {
      try {
        return await readFile(fileOf(sha256));
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw missing();
      }
    },
    async stream(sha256) {
      const file = fileOf(sha256);
      try {
        await stat(file);
      } catch {
        throw missing();
      }
      return createReadStream(file);
    },
    async exists(sha256) {
      try {
        await stat(fileOf(sha256));
        return true;
      } catch {
        return false;
      }
    },
  };
}
