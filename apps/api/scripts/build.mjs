/**
 * Bundles the server (src/server.ts and the workspace's own TypeScript: contracts, the generated
 * Prisma client) into dist/server.mjs for `pnpm start` and the Docker image, so production runs on
 * plain `node` instead of transpiling with tsx at run time: tsx's loader and its transpiled module
 * copies cost ~60–80 MB of resident memory and ~1 s of start-up (docs/benchmarks.md).
 *
 * npm packages stay external (resolved from node_modules at run time, as with tsx): native addons
 * (@napi-rs/canvas), WASM (PGlite, Prisma's query compiler), fonts and other files found through
 * require.resolve keep working unchanged — except the plain JavaScript loaded on every start
 * (START_PATH below), which is bundled. dist/ sits at the same depth as src/, so the paths
 * computed from import.meta.url (repo root, web dist, migrations) are the same.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workspaceOnly = (pkgPath) => {
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  return Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter(
    (d) => !pkg.dependencies?.[d]?.startsWith('workspace:'),
  );
};
/**
 * npm packages bundled (with what they import) although they are npm dependencies: plain JavaScript
 * that every start loads before it listens, with no file of its own read at run time (no WASM, no
 * native addon, no static files, no worker script: pino's transports, which start one, are not
 * used). A start then opens, resolves and wraps ~210 JavaScript files instead of ~690 (zod alone
 * was 99, fastify and its helpers ~200): the modules' phase of a start took
 * 0.47–0.75 s instead of 0.63–1.0 s (docs/benchmarks.md). @fastify/swagger-ui serves
 * its own files and stays external, as do PGlite, Prisma, pg and whatever is loaded only on use
 * (exceljs, pdf-lib, canvas).
 */
const START_PATH = new Set([
  'fastify',
  'fastify-plugin',
  '@fastify/cookie',
  '@fastify/helmet',
  '@fastify/multipart',
  '@fastify/session',
  '@fastify/static',
  '@fastify/swagger',
  'fastify-type-provider-zod',
  'openid-client',
  'pino',
  'zod',
  'pglite-prisma-adapter',
]);
// every other npm dependency of the api and of the workspace packages it bundles is external
const external = [
  ...workspaceOnly(path.join(apiDir, 'package.json')),
  ...workspaceOnly(path.join(apiDir, '../../packages/contracts/package.json')),
]
  .filter((d) => !START_PATH.has(d))
  .flatMap((d) => [d, `${d}/*`]);

/**
 * @fastify/cookie loads the ESM-only `cookie` package with `await import('cookie')` when it is
 * registered. Bundled, that import became a file of its own (a two-line re-export of a chunk the
 * start has loaded already) which a warm embedded start read through the libuv threadpool just
 * after PGlite's open, while V8's background tier-up of PGlite's WASM held both cores: the read
 * waited ~260 ms of "app built" (docs/benchmarks.md). As a require() the bundle resolves
 * it in place. The build fails if the package no longer has that import.
 */
const inlineCookieImport = {
  name: 'inline-cookie-import',
  setup(b) {
    b.onLoad({ filter: /[\\/]@fastify[\\/]cookie[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const dynamic = "await import('cookie')";
      if (!source.includes(dynamic))
        throw new Error(
          `${args.path}: no longer has ${dynamic}; review the inline-cookie-import plugin in scripts/build.mjs`,
        );
      return { contents: source.replace(dynamic, "require('cookie')"), loader: 'js' };
    });
  },
};

const started = performance.now();
// everything but the prepared database images and demo drawings, rebuilt only when their inputs change
const dist = path.join(apiDir, 'dist');
const kept = new Set(['db-image', 'db-image-demo', 'demo-files']);
if (existsSync(dist))
  for (const f of readdirSync(dist, { withFileTypes: true }).filter((d) => !kept.has(d.name)))
    rmSync(path.join(dist, f.name), { recursive: true, force: true });
await build({
  // both at dist/'s top level: paths computed from import.meta.url mean the same in every file
  // cli.mjs: the operators' commands (db:migrate, db:backup, db:restore, db:verify-backup) on plain
  // node where no dev dependency (tsx) is installed — the image's runtime stage
  entryPoints: {
    server: path.join(apiDir, 'src/server.ts'),
    'prepare-images': path.join(apiDir, 'src/db/prepare-images.ts'),
    cli: path.join(apiDir, 'src/db/cli.ts'),
    'storage-cli': path.join(apiDir, 'src/lib/storage/cli.ts'),
    'audit-cli': path.join(apiDir, 'src/modules/audit/cli.ts'),
  },
  outdir: path.join(apiDir, 'dist'),
  outExtension: { '.js': '.mjs' },
  // code loaded with import() (the demo seed's drawing code) stays in its own chunk, so its
  // canvas and pdf-lib imports are not hoisted into the start-up path
  splitting: true,
  // chunks beside server.mjs: paths computed from import.meta.url mean the same in every file
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external,
  plugins: [inlineCookieImport],
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // ESM output has no require(); a bundled CommonJS helper may still ask for one
  banner: {
    js: "import { createRequire as __esmCreateRequire } from 'node:module'; const require = __esmCreateRequire(import.meta.url);",
  },
});
console.log(`api bundled to dist/server.mjs in ${Math.round(performance.now() - started)} ms`);
// The embedded database's prepared cluster (src/db/image.ts): the first start on an empty data
// directory unpacks it instead of running initdb and every migration. The same step draws the
// demo archive's files (src/db/demo-files.ts), which the demo seed then copies instead of drawing.
execFileSync(process.execPath, [path.join(dist, 'prepare-images.mjs')], { cwd: apiDir, stdio: 'inherit' });
