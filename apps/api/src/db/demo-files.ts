/**
 * The demo archive's drawings, drawn once at build time. Drawing them — loading
 * @napi-rs/canvas and pdf-lib, laying out ~30 PDFs and PNGs — was ~1.6 s of a cold start's CPU,
 * the largest single step of the demo seed. `node dist/prepare-images.mjs` (scripts/build.mjs) now
 * writes them to dist/demo-files with a manifest naming, for every drawing the seed asks for (its
 * inputs as a key), the file that holds it; the seed streams those bytes into storage, which
 * hashes them as an upload would, so the rows record the sha256 of exactly what is stored.
 *
 * The files are redrawn only when their inputs change: the list of demo drawings, or the drawing
 * code itself (its source text is part of the key). A drawing the manifest lacks — no build
 * (`pnpm dev`, the tests), or a build older than the list — is drawn at seed time as before.
 * Only the bytes are prepared here: the rows are dated relative to the moment of the seed, so
 * they are written by the seed — at start, or at build time into the demo image (db/image.ts),
 * which a start uses only on the day it was seeded.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { paths } from '../config.ts';
// a type only (erased): the drawing code itself is imported when a drawing is made
import type { DrawingSheetInfo } from './demo-drawings.ts';

export const DEMO_FILES_DIR = path.join(paths.root, 'apps/api/dist/demo-files');
const MANIFEST = 'manifest.json';
const DRAWING_SOURCE = path.join(paths.root, 'apps/api/src/db/demo-drawings.ts');

/** What one demo drawing is drawn from; equal specs, equal drawing. */
export interface DemoDrawingSpec extends DrawingSheetInfo {
  type: 'pdf' | 'png' | 'dxf';
}

export const specKey = (s: DemoDrawingSpec) =>
  JSON.stringify([s.type, s.standardCode, s.version, s.materialCode, s.caption, s.secretLevel, s.pages]);

interface Manifest {
  key: string;
  /** specKey → file name in the folder. */
  files: Record<string, string>;
}

export async function drawDemoFile(s: DemoDrawingSpec): Promise<Uint8Array> {
  // loaded only here: canvas and pdf-lib are not needed by a start that finds the files ready
  const { drawingDxf, drawingPdf, drawingPng } = await import('./demo-drawings.ts');
  if (s.type === 'png') return drawingPng(s);
  if (s.type === 'dxf') return drawingDxf(s);
  return drawingPdf(s);
}

function keyOf(specs: DemoDrawingSpec[]): string {
  return createHash('sha256')
    .update(JSON.stringify(specs.map(specKey)))
    .update(readFileSync(DRAWING_SOURCE))
    .digest('hex');
}

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** Where the prepared bytes of a drawing are, or null (draw it then). */
export function preparedDemoFiles(dir = DEMO_FILES_DIR): (s: DemoDrawingSpec) => string | null {
  const manifest = readManifest(dir);
  return (s) => {
    const name = manifest?.files[specKey(s)];
    return name && existsSync(path.join(dir, name)) ? path.join(dir, name) : null;
  };
}

/** Draws every spec into `dir` (replacing what is there) unless it holds them already; answers whether it drew. */
export async function writeDemoFiles(specs: DemoDrawingSpec[], dir = DEMO_FILES_DIR, force = false): Promise<boolean> {
  const key = keyOf(specs);
  if (!force && readManifest(dir)?.key === key) return false;
  // written beside and renamed into place: a failed build never leaves half a folder behind
  const tmp = `${dir}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const files: Record<string, string> = {};
  for (const [i, s] of specs.entries()) {
    const name = `${String(i).padStart(2, '0')}.${s.type}`;
    writeFileSync(path.join(tmp, name), await drawDemoFile(s));
    files[specKey(s)] = name;
  }
  writeFileSync(path.join(tmp, MANIFEST), JSON.stringify({ key, files } satisfies Manifest, null, 1));
  rmSync(dir, { recursive: true, force: true });
  renameSync(tmp, dir);
  return true;
}
