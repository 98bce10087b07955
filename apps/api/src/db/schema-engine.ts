/**
 * Prisma's schema engine compiled to WASM: it writes the SQL of new migrations from changes to
 * prisma/schema.prisma without any native engine. Applying them is migrations.ts.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { paths } from '../config.ts';
import { memoryFactory } from './memory.ts';

type Engine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};

let instances = 0;
const noFilter = { externalTables: [], externalEnums: [] };

async function loadWasm(): Promise<{ SchemaEngine: { new: (o: unknown, cb: unknown, a: object) => Promise<Engine> } }> {
  // A Rust panic only shows its message when this registry exists before the module loads.
  const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(m: string): void }; __prismaPanic?: string };
  g.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (m: string) => (g.__prismaPanic = m) };
  // The glue module caches views of its instance's memory, so each instance gets its own copy
  // of the module (a distinct URL is a distinct ES module).
  const require = createRequire(import.meta.url);
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const bg = await import(`${pathToFileURL(gluePath).href}?instance=${++instances}`);
  const wasmPath = path.join(path.dirname(gluePath), 'schema_engine_bg.wasm');
  const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
    './schema_engine_bg.js': bg as never,
  });
  (bg as unknown as { __wbg_set_wasm(e: unknown): void }).__wbg_set_wasm(instance.exports);
  return bg as never;
}

/**
 * The engine calls the adapter's methods unbound, so hand it an object whose methods are
 * bound; and it needs a schema name in the connection info, which pglite-prisma-adapter
 * leaves undefined (the engine then fails with "failed to get connection info").
 */
function bound(factory: SqlMigrationAwareDriverAdapterFactory): SqlMigrationAwareDriverAdapterFactory {
  const withSchema = async (adapter: Promise<SqlDriverAdapter>): Promise<SqlDriverAdapter> => {
    const a = await adapter;
    const info = a.getConnectionInfo?.() ?? { supportsRelationJoins: true };
    return new Proxy(a, {
      get(target, prop) {
        if (prop === 'getConnectionInfo') return () => ({ ...info, schemaName: info.schemaName ?? 'public' });
        const v = Reflect.get(target, prop, target);
        if (typeof v !== 'function') return v;
        // The engine reads a void result as Rust's unit, which it accepts as null only.
        return (...args: unknown[]) => {
          const r = v.apply(target, args);
          return r instanceof Promise ? r.then((x) => (x === undefined ? (globalThis as any).__UNIT : x)) : r;
        };
      },
    });
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: () => withSchema(factory.connect()),
    connectToShadowDb: () => withSchema(factory.connectToShadowDb()),
  };
}

export async function openEngine(factory: SqlMigrationAwareDriverAdapterFactory): Promise<Engine> {
  // A fresh WASM instance per engine: a second engine on a reused instance fails with
  // "invalid type: ..., expected unit" once the first has run (seen with 7.10.0-7).
  const { SchemaEngine } = await loadWasm();
  const schema = await readFile(paths.schema, 'utf8');
  const log = () => {};
  return SchemaEngine.new(
    { datamodels: [[paths.schema, schema]] },
    log,
    bindMigrationAwareSqlAdapterFactory(bound(factory)),
  );
}

/**
 * SQL that takes a database from the schema `from` (a Prisma schema text, or nothing for an
 * empty database) to `to`. Pure: compares two datamodels, touches no database. (Diffing from
 * the migrations folder or a live database needs the engine to introspect through the driver
 * adapter, and this WASM build fails there: "invalid type: JsValue(null), expected unit" /
 * "expected any valid JSON value" on null results. Comparing datamodels avoids it.)
 */
export async function diffSchemas(from: string | null, to: string): Promise<string> {
  const { factory, close } = await memoryFactory();
  const engine = await openEngine(factory);
  try {
    const out = await engine.diff({
      from:
        from === null ? { tag: 'empty' } : { tag: 'schemaDatamodel', files: [{ path: paths.schema, content: from }] },
      to: { tag: 'schemaDatamodel', files: [{ path: paths.schema, content: to }] },
      script: true,
      exitCode: false,
      filters: noFilter,
    });
    return out.stdout ?? '';
  } finally {
    engine.free();
    await close();
  }
}

/**
 * All the SQL of the schema as declared: what prisma/schema.prisma describes, then what it cannot
 * say (SQL functions, expression indexes), written by hand in prisma/expression-indexes.sql. The
 * drift checks build their reference database from it.
 */
export async function declaredSchemaSql(): Promise<string> {
  const fromPrisma = await diffSchemas(null, await readFile(paths.schema, 'utf8'));
  const byHand = await readFile(path.join(path.dirname(paths.schema), 'expression-indexes.sql'), 'utf8');
  return `${fromPrisma}\n${byHand}`;
}

/** True when a diff script holds no statement (the engine prints a comment for "no change"). */
export function isEmptyMigration(sql: string): boolean {
  return sql
    .split('\n')
    .map((l) => l.trim())
    .every((l) => l === '' || l.startsWith('--'));
}
