import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/** An in-memory PGlite behind a Prisma driver adapter: scratch space for the schema engine. */
export async function memoryFactory(): Promise<{
  factory: SqlMigrationAwareDriverAdapterFactory;
  close(): Promise<void>;
}> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PrismaPGlite } = await import('pglite-prisma-adapter');
  const pglite = await PGlite.create();
  return {
    factory: new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory,
    close: () => pglite.close(),
  };
}
