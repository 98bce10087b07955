/**
 * The local folder driver (the default; the embedded start's): a file's bytes live at
 * <dir>/aa/bb/<sha256>, written once, never under a path a request can steer — the key is checked
 * to be a sha256 before it touches the file system.
 *
 * Nothing half-written is ever kept: bytes stream into <dir>/tmp/<uuid> and are renamed into
 * place only once complete, and the temporary file is removed when the stream fails — a client
 * that goes away mid-upload included (test/upload-abort.test.ts). Quarantined files sit in
 * <dir>/quarantine/<sha256>, their modification time the moment they were moved there.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../plugins/errors.ts';
import {
  contentPath,
  FileTooLargeError,
  invalidKey,
  KEY,
  MARKER,
  meter,
  missing,
  QUARANTINE,
  TMP,
  truncated,
  type Storage,
  type StoreMarker,
} from './common.ts';

/** Entries of a folder, or none when it does not exist. */
async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return null;
  }
}

export function localStorage(dir: string): Storage {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw invalidKey();
    return path.join(dir, contentPath(key));
  };
  const tmpDir = path.join(dir, TMP);
  const quarantineDir = path.join(dir, QUARANTINE);
  /** A stored file, else its quarantined copy (a sweep racing a new reference puts it back later). */
  const located = async (key: string) => {
    const file = fileOf(key);
    if ((await mtimeOf(file)) !== null) return file;
    const aside = path.join(quarantineDir, key);
    if ((await mtimeOf(aside)) !== null) return aside;
    throw missing();
  };

  return {
    description: `local folder ${dir}`,
    async put(source, maxBytes) {
      // a source failing while the folder is made is not an uncaught error: the pipeline below
      // sees the stream's error and fails the upload
      source.on('error', () => {});
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      const m = meter(maxBytes);
      try {
        await pipeline(source, m.stream, createWriteStream(tmp));
        if (truncated(source)) throw new FileTooLargeError(maxBytes);
        const sha256 = m.digest();
        const target = fileOf(sha256);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
        return { sha256, size: m.size() };
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },
    async read(sha256) {
      try {
        // the stored file itself first, without a stat before it (every view and print reads one):
        // only when it is not there is the quarantined copy looked for
        return await readFile(fileOf(sha256)).catch(async () => readFile(await located(sha256)));
      } catch (e) {
        if (e instanceof AppError) throw e;
        throw missing();
      }
    },
    async stream(sha256) {
      return createReadStream(await located(sha256));
    },
    async exists(sha256) {
      try {
        await located(sha256);
        return true;
      } catch {
        return false;
      }
    },
    async size(sha256) {
      try {
        return (await stat(fileOf(sha256))).size;
      } catch {
        return null;
      }
    },
    async sweep({ olderThanMs, quarantineMs, isReferenced, now = Date.now() }) {
      const counts = { moved: 0, restored: 0, purged: 0, temporary: 0 };
      const old = async (file: string, ms: number) => {
        const t = await mtimeOf(file);
        return t !== null && t < now - ms;
      };
      for (const name of await entries(tmpDir)) {
        const file = path.join(tmpDir, name);
        if (await old(file, olderThanMs)) {
          await rm(file, { force: true });
          counts.temporary++;
        }
      }
      for (const key of await entries(quarantineDir)) {
        if (!KEY.test(key)) continue;
        const aside = path.join(quarantineDir, key);
        if (await isReferenced(key)) {
          const file = fileOf(key);
          await mkdir(path.dirname(file), { recursive: true });
          // an upload of the same bytes may have put a fresh copy in place: the same bytes either way
          if ((await mtimeOf(file)) !== null) await rm(aside, { force: true });
          else await rename(aside, file);
          counts.restored++;
        } else if (await old(aside, quarantineMs)) {
          await rm(aside, { force: true });
          counts.purged++;
        }
      }
      for (const a of await entries(dir)) {
        if (!/^[0-9a-f]{2}$/.test(a)) continue;
        for (const b of await entries(path.join(dir, a))) {
          for (const key of await entries(path.join(dir, a, b))) {
            if (!KEY.test(key) || key.slice(0, 4) !== a + b) continue;
            const file = fileOf(key);
            if (!(await old(file, olderThanMs)) || (await isReferenced(key))) continue;
            // An upload of the same bytes may be renaming a fresh copy into place right now. Move
            // the candidate aside first (atomic), then look again: a fresh file (just renamed in)
            // or a row committed meanwhile puts it back.
            const aside = path.join(quarantineDir, key);
            await mkdir(quarantineDir, { recursive: true });
            try {
              await rename(file, aside);
            } catch {
              continue;
            }
            if ((await old(aside, olderThanMs)) && !(await isReferenced(key))) {
              // its modification time says since when it is in quarantine (the wall clock's, as
              // an object store's copy time would)
              const at = new Date();
              await utimes(aside, at, at);
              counts.moved++;
            } else {
              await rename(aside, file);
            }
          }
        }
      }
      return counts;
    },
    async readMarker() {
      try {
        return JSON.parse(await readFile(path.join(dir, MARKER), 'utf8')) as StoreMarker;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    async writeMarker(marker) {
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, `marker-${randomUUID()}`);
      await writeFile(tmp, JSON.stringify(marker, null, 2) + '\n');
      await rename(tmp, path.join(dir, MARKER));
    },
    async probe() {
      await mkdir(tmpDir, { recursive: true });
      const file = path.join(tmpDir, `probe-${os.hostname()}-${randomUUID()}`);
      const text = `probe ${Date.now()}`;
      try {
        await writeFile(file, text);
        if ((await readFile(file, 'utf8')) !== text) throw new Error(`${file}: read back other bytes than written`);
      } finally {
        await rm(file, { force: true });
      }
    },
  };
}
