/**
 * Uploaded files, content-addressed: a file's bytes live at <dir>/<aa>/<bb>/<sha256>, written
 * once, never inside the database and never under a path a request can steer (design §3). The
 * key is checked to be a sha256 before it touches the file system.
 *
 * Nothing half-written is ever kept: bytes stream into <dir>/tmp/<uuid> and are renamed into
 * place only once complete, and the temporary file is removed when the stream fails — a client
 * that goes away mid-upload included (@fastify/multipart fails the part stream then;
 * test/upload-abort.test.ts). What a crash leaves behind (a temporary file, or bytes
 * whose database row never committed) is removed by `sweep` once it is old enough that no upload
 * can still be working on it (modules/maintenance/plugin.ts runs it).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
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
  /**
   * Removes temporary files, and stored files no row refers to, last written over `olderThanMs`
   * ago; answers how many of each it removed.
   */
  sweep(olderThanMs: number, isReferenced: (sha256: string) => Promise<boolean>): Promise<{ temporary: number; orphans: number }>;
}

/** Entries of a folder, or none when it does not exist. */
async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
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
    async sweep(olderThanMs, isReferenced) {
      const before = Date.now() - olderThanMs;
      const old = async (file: string) => {
        try {
          return (await stat(file)).mtimeMs < before;
        } catch {
          return false;
        }
      };
      let temporary = 0;
      let orphans = 0;
      const tmpDir = path.join(dir, 'tmp');
      for (const name of await entries(tmpDir)) {
        const file = path.join(tmpDir, name);
        if (await old(file)) {
          await rm(file, { force: true });
          temporary++;
        }
      }
      for (const a of await entries(dir)) {
        if (!/^[0-9a-f]{2}$/.test(a)) continue;
        for (const b of await entries(path.join(dir, a))) {
          for (const key of await entries(path.join(dir, a, b))) {
            if (!KEY.test(key) || key.slice(0, 4) !== a + b) continue;
            const file = fileOf(key);
            if (!(await old(file)) || (await isReferenced(key))) continue;
            // An upload of the same bytes may be renaming a fresh copy into place right now. Move
            // the candidate aside first (atomic), then look again: a fresh file (just renamed in)
            // or a row committed meanwhile puts it back; otherwise it goes.
            const aside = path.join(tmpDir, `${key}.${randomUUID()}.orphan`);
            await mkdir(tmpDir, { recursive: true });
            try {
              await rename(file, aside);
            } catch {
              continue;
            }
            if ((await old(aside)) && !(await isReferenced(key))) {
              await rm(aside, { force: true });
              orphans++;
            } else {
              await rename(aside, file);
            }
          }
        }
      }
      return { temporary, orphans };
    },
  };
}
