#!/usr/bin/env node
/**
 * Builds the folder the production image runs — the Dockerfile's runtime stage copies it whole, and
 * apps/api/test/runtime-folder.test.ts starts the portal from it — out of a checkout that has run
 * `pnpm build`:
 *
 *   <out>/apps/api/package.json
 *   <out>/apps/api/dist/          server.mjs, cli.mjs and their chunks; the embedded database's
 *                                 image and the demo drawings (not the demo image: it is usable
 *                                 only on the day it was built)
 *   <out>/apps/api/node_modules/  production dependencies only (pnpm deploy --prod): the packages
 *                                 the bundle leaves external (scripts/build.mjs)
 *   <out>/apps/web/dist/          the built web, served under /esm
 *   <out>/prisma/                 migrations and schema, applied at start
 *
 * The layout is the repository's because the bundle finds the web, the migrations and the database
 * image relative to itself (apps/api/src/paths.ts). Nothing in it needs the network or a dev
 * dependency at run time: `node apps/api/dist/server.mjs` starts the portal, `node
 * apps/api/dist/cli.mjs backup|restore|verify-backup|migrate` runs the operators' commands.
 *
 * usage: node scripts/runtime-folder.mjs <out>     (or: pnpm runtime-folder <out>)
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [target] = process.argv.slice(2);
if (!target) {
  console.error('usage: node scripts/runtime-folder.mjs <out folder>');
  process.exit(2);
}
const out = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
const fail = (message) => {
  console.error(`runtime-folder: ${message}`);
  process.exit(1);
};

// what `pnpm build` makes: the folder is assembled from it, never built here
const built = [
  'apps/api/dist/server.mjs',
  'apps/api/dist/cli.mjs',
  'apps/api/dist/db-image',
  'apps/web/dist/index.html',
];
const absent = built.filter((f) => !existsSync(path.join(root, f)));
if (absent.length) fail(`${absent.join(', ')} missing: run \`pnpm build\` first`);
if (existsSync(out) && readdirSync(out).length) fail(`${out} is not empty`);
if (out === root || out.startsWith(`${root}${path.sep}`))
  fail(`${out} is inside the checkout: node would find the checkout's node_modules from there`);

/** pnpm as the caller ran it (npm_execpath), else the one on PATH, else the version package.json names through npx. */
function pnpm(args) {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(path.basename(execpath)))
    return execFileSync(process.execPath, [execpath, ...args], { cwd: root, stdio: 'inherit' });
  const onPath = (process.env.PATH ?? '').split(path.delimiter).some((d) => d && existsSync(path.join(d, 'pnpm')));
  if (onPath) return execFileSync('pnpm', args, { cwd: root, stdio: 'inherit' });
  const { packageManager } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return execFileSync('npx', ['-y', packageManager, ...args], { cwd: root, stdio: 'inherit' });
}

const started = performance.now();
const api = path.join(out, 'apps/api');
// inject-workspace-packages for this command only: deploy then installs from the workspace's own
// lockfile (the workspace itself links its packages, which `pnpm dev` relies on). The legacy deploy
// resolved every range afresh, so offline it needed the registry's metadata in pnpm's cache, which
// a machine that only ran the frozen install does not have. --ignore-scripts: the api's postinstall
// generates the Prisma client with the prisma CLI, a dev dependency; the bundle has the generated
// client inside. --offline: everything comes from the store the build's install filled.
pnpm([
  '--filter',
  '@esm/api',
  '--config.inject-workspace-packages=true',
  'deploy',
  '--prod',
  '--ignore-scripts',
  '--offline',
  api,
]);

// deploy copies the package's sources, tests and benchmarks too: only the manifest and the
// installed dependencies stay, and the build's output is copied in below
for (const entry of readdirSync(api))
  if (entry !== 'package.json' && entry !== 'node_modules')
    rmSync(path.join(api, entry), { recursive: true, force: true });
const skipped = new Set(['db-image-demo']);
cpSync(path.join(root, 'apps/api/dist'), path.join(api, 'dist'), {
  recursive: true,
  filter: (src) => !skipped.has(path.basename(src)),
});
cpSync(path.join(root, 'apps/web/dist'), path.join(out, 'apps/web/dist'), { recursive: true });
mkdirSync(path.join(out, 'prisma'), { recursive: true });
for (const f of ['schema.prisma', 'expression-indexes.sql', 'migrations'])
  cpSync(path.join(root, 'prisma', f), path.join(out, 'prisma', f), { recursive: true });

// The watermark draws with one weight of Noto Sans SC (lib/watermark.ts); the package
// ships nine, ~11 MB each. The others go (the runtime test downloads a stamped drawing).
const fonts = realpathSync(path.join(api, 'node_modules/@expo-google-fonts/noto-sans-sc'));
for (const entry of readdirSync(fonts)) {
  if (/^\d00[A-Za-z]+$/.test(entry) && entry !== '400Regular' && statSync(path.join(fonts, entry)).isDirectory())
    rmSync(path.join(fonts, entry), { recursive: true, force: true });
}

const size = (p) => {
  const s = lstatSync(p, { throwIfNoEntry: false });
  if (!s || s.isSymbolicLink()) return 0;
  return s.isDirectory() ? readdirSync(p).reduce((n, e) => n + size(path.join(p, e)), 0) : s.size;
};
console.log(
  `runtime folder ${out}: ${Math.round(size(out) / 1024 / 1024)} MB, in ${Math.round((performance.now() - started) / 1000)} s`,
);
