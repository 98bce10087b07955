/**
 * pdf.js fetches some of its data by URL at run time: CMaps (CJK text in fonts a drawing did not
 * embed), the standard fonts and its wasm image decoders. This plugin ships them with the app
 * under /esm/pdfjs/ (copied into dist at build, served from node_modules in dev), so the viewer
 * needs nothing from the internet.
 */
import { cpSync, createReadStream, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';

const PDFJS_DIR = join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/build/pdf.mjs')), '..');
const DIRS = ['cmaps', 'standard_fonts', 'wasm'];

export function pdfjsAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'esm-pdfjs-assets',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/esm/pdfjs/', (req, res, next) => {
        const rel = normalize(decodeURIComponent((req.url ?? '').split('?')[0] ?? '')).replace(/^[/\\]+/, '');
        const file = join(PDFJS_DIR, rel);
        if (
          !DIRS.includes(rel.split(sep)[0] ?? '') ||
          !file.startsWith(PDFJS_DIR) ||
          !existsSync(file) ||
          !statSync(file).isFile()
        )
          return next();
        createReadStream(file).pipe(res);
      });
    },
    closeBundle() {
      for (const d of DIRS) cpSync(join(PDFJS_DIR, d), join(outDir, 'pdfjs', d), { recursive: true });
    },
  };
}
