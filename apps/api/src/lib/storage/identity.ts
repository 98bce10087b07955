/**
 * A file store belongs to one database. The database's id is made once (database_identity) and
 * the first start writes it into the store's marker (.esm-store.json, with when and by which
 * host). A start whose database is another one than the marker names refuses: a restored copy
 * of the database pointed at production's store would otherwise see production's newer files
 * as orphans, and another database's rows would point at bytes this one never wrote. After a
 * restore the operator says so (STORAGE_ADOPT=true), and the marker is rewritten.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { SqlRunner } from '../../db/migrations.ts';
import { MARKER, type Storage, type StoreMarker } from './common.ts';

type Sql = Pick<SqlRunner, '$queryRawUnsafe' | '$executeRawUnsafe'>;

/** This database's id, made on first use (two replicas starting at once agree on one). */
export async function databaseIdOf(sql: Sql): Promise<string> {
  await sql.$executeRawUnsafe(
    'INSERT INTO database_identity (singleton, database_id) VALUES (true, $1::uuid) ON CONFLICT (singleton) DO NOTHING',
    randomUUID(),
  );
  const rows = await sql.$queryRawUnsafe<{ id: string }[]>(
    'SELECT database_id::text AS id FROM database_identity WHERE singleton',
  );
  return rows[0]!.id;
}

export class StoreOfAnotherDatabaseError extends Error {}

export interface Claim {
  databaseId: string;
  /** what the start did to the marker */
  marker: 'kept' | 'written' | 'adopted';
  previous?: StoreMarker;
}

/** Checks the store's marker against this database before the server listens; writes it when absent. */
export async function claimStore(
  sql: Sql,
  storage: Storage,
  opts: { adopt: boolean; host?: string; now?: Date },
): Promise<Claim> {
  const databaseId = await databaseIdOf(sql);
  const previous = await storage.readMarker();
  if (previous?.databaseId === databaseId) return { databaseId, marker: 'kept', previous };
  if (previous && !opts.adopt) {
    throw new StoreOfAnotherDatabaseError(
      `the file store (${storage.description}) belongs to database ${previous.databaseId} (its marker ${MARKER} was written ${previous.writtenAt} by host ${previous.host}), ` +
        `but this database is ${databaseId}. Two databases sharing one store lose files: point STORAGE_DIR or S3_BUCKET at this database's own store, ` +
        `or — when this database was restored from a backup and is to take over this store — start once with STORAGE_ADOPT=true, which rewrites the marker.`,
    );
  }
  const marker: StoreMarker = {
    databaseId,
    writtenAt: (opts.now ?? new Date()).toISOString(),
    host: opts.host ?? os.hostname(),
    ...(previous ? { adoptedFrom: previous.databaseId } : {}),
  };
  await storage.writeMarker(marker);
  return { databaseId, marker: previous ? 'adopted' : 'written', ...(previous ? { previous } : {}) };
}
