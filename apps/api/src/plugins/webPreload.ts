/**
 * What a page of the portal loads before it can render, read off the web build's manifest
 * (`dist/.vite/manifest.json`, Vite's way for a server to name a page's chunks): the shell, the
 * layout and the page's own chunk, each with what it imports statically, and their CSS.
 *
 * index.html names only the entry's chunks, so a browser found the rest a level at a time — the
 * entry, then the shell and its libraries, then the layout and the page — a round trip and a
 * script's run each. The server names them all in the page it sends (plugins/web.ts) as
 * `<link rel="modulepreload">` (the CSS as `preload`), and they come beside the entry. The login
 * page is sent as it is: its first load must not carry the portal's shell (apps/web main.tsx).
 * A page whose file the manifest does not hold (a path that is no page) gets the shell and layout.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BASE_PATH, PAGES } from '@esm/contracts';

/** A chunk of Vite's manifest, as far as this reads it. */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** Where the build's files are served (the web build's `base`; the manifest's files are relative to it). */
const ASSET_BASE = `${BASE_PATH}/`;

/** The web app's sources that every page but the login page loads first (apps/web/src). */
const SHELL_SRC = 'src/app/shell.tsx';
const LAYOUT_SRC = 'src/app/layout/BasicLayout.tsx';

const keyByPath = new Map(Object.entries(PAGES).map(([key, page]) => [page.path, key]));
/** A page's key by its path under /esm (without a trailing slash); undefined for a path that is no page. */
export const keyOfPath = (pagePath: string) => keyByPath.get(pagePath);

/** The build's manifest, or undefined when the web app was built without one (or not at all). */
export function readManifest(webDist: string): Manifest | undefined {
  const file = path.join(webDist, '.vite', 'manifest.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;
}

/** The manifest's key of the chunk built from `match`ing source, if any. */
const idOf = (manifest: Manifest, match: (src: string) => boolean) =>
  Object.keys(manifest).find((id) => match(manifest[id]!.src ?? ''));

/** The chunks `roots` import statically, the roots among them. */
function closure(manifest: Manifest, roots: (string | undefined)[]): Set<string> {
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id) || !manifest[id]) return;
    seen.add(id);
    for (const i of manifest[id].imports ?? []) walk(i);
  };
  for (const id of roots) if (id) walk(id);
  return seen;
}

export interface PageLoad {
  /** The entry's scripts and CSS (what index.html names already), files under the build's root. */
  entry: { js: string[]; css: string[] };
  /** The shell's, the layout's and the page's beyond the entry's. */
  portal: { js: string[]; css: string[] };
}

const filesOf = (manifest: Manifest, ids: Iterable<string>) => {
  const js: string[] = [];
  const css = new Set<string>();
  for (const id of ids) {
    const chunk = manifest[id]!;
    if (chunk.file.endsWith('.js')) js.push(chunk.file);
    for (const c of chunk.css ?? []) css.add(c);
  }
  return { js, css: [...css] };
};

/**
 * What `pagePath` (a path under /esm) loads before it renders. The page's chunk is its file,
 * features/<feature>/pages/<key>.tsx (pages are named by their key).
 */
export function pageLoad(manifest: Manifest, pagePath: string): PageLoad {
  const entryIds = closure(manifest, [idOf(manifest, (s) => s === 'index.html')]);
  const key = keyOfPath(pagePath.replace(/\/+$/, ''));
  const pageId = key ? idOf(manifest, (s) => s.endsWith(`/pages/${key}.tsx`)) : undefined;
  const roots = [idOf(manifest, (s) => s === SHELL_SRC), idOf(manifest, (s) => s === LAYOUT_SRC), pageId];
  const portalIds = [...closure(manifest, roots)].filter((id) => !entryIds.has(id));
  const entry = filesOf(manifest, entryIds);
  const portal = filesOf(manifest, portalIds);
  return { entry, portal: { js: portal.js, css: portal.css.filter((c) => !entry.css.includes(c)) } };
}

/**
 * index.html with `load`'s portal files named in its head; a weak ETag for it (the same for every
 * encoding it goes out in).
 */
export function withPreloads(indexHtml: string, load: PageLoad): { html: string; etag: string } {
  const href = (file: string) => `${ASSET_BASE}${file}`;
  const links = [
    ...load.portal.js.map((f) => `<link rel="modulepreload" crossorigin href="${href(f)}">`),
    ...load.portal.css.map((f) => `<link rel="preload" as="style" crossorigin href="${href(f)}">`),
  ].join('\n    ');
  const html = links ? indexHtml.replace('</head>', `    ${links}\n  </head>`) : indexHtml;
  return { html, etag: `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
}
