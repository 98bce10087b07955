/**
 * Uploaded files, content-addressed: a file's bytes live under their sha256, written once, never
 * inside the database and never under a path a request can steer. Two drivers keep the one
 * contract (`Storage`, lib/storage/common.ts): a local folder (the default; lib/storage/local.ts)
 * and any S3-compatible object store (lib/storage/s3.ts), chosen by the configuration.
 *
 * What a crash leaves behind (a temporary file, or bytes whose database row never committed) is
 * quarantined, then removed, by `sweep` once it is old enough that no upload can still be working
 * on it (modules/maintenance/plugin.ts runs it).
 */
import type { Config } from '../config.ts';
import { localStorage } from './storage/local.ts';
import type { Storage } from './storage/common.ts';

export * from './storage/common.ts';
export { localStorage } from './storage/local.ts';

/**
 * The store the configuration names: the S3 bucket when S3_BUCKET is set, else the local folder.
 * The S3 driver (and the AWS SDK under it) is loaded only then: an embedded start does not pay for it.
 */
export async function storageOf(config: Pick<Config, 'storageDir' | 's3'>): Promise<Storage> {
  if (!config.s3) return localStorage(config.storageDir);
  const { s3Storage } = await import('./storage/s3.ts');
  return s3Storage(config.s3);
}
