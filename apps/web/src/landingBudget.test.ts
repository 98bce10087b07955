/**
 * What each user type's landing page loads of JavaScript as the server sends it (the build's .br
 * beside every asset, plugins/web.ts), held to a budget. Computed from the built apps/web/dist and
 * Vite's manifest: the entry, the shell, the layout and the page's chunk, with everything they
 * import statically — what the browser fetches before the page can render. `pnpm test` builds
 * before it runs the unit tests; without a build this test says so and fails.
 * `LANDING_JS_REPORT=1` prints each page's files.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { DEFAULT_PAGE, PAGES } from '@esm/contracts/basics';

/**
 * The aim is 300 KB (docs/benchmarks.md, lighthouse); the pages load 384–396 KB in 12–13 files, of
 * it 273 KB the landing-libs chunk (antd, React Router, zod, react-query, dayjs), 57 KB React and
 * 36 KB the landing-app chunk (the portal's own modules the layout and the landing pages import). What only
 * shows after a click — date pickers, dialogs, drawers, the file viewer — is not counted: it comes
 * after the page (components/DateRange.tsx, lib/lazyLoaded.ts `lazyDialog`). The budget holds
 * today's figures so that nothing adds to them while they are brought down to the aim.
 */
const BUDGET_KB = 400;
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifestFile = `${dist}.vite/manifest.json`;

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** The bytes a browser that accepts brotli receives for a built file (.br when the build wrote one). */
function servedBytes(file: string): number {
  const br = `${dist}${file}.br`;
  return statSync(existsSync(br) ? br : `${dist}${file}`).size;
}

/** A page's key by its path (the page files are named by key: features/<f>/pages/<key>.tsx). */
const keyOf = (path: string) => Object.entries(PAGES).find(([, p]) => p.path === path)![0];

test(`every landing page loads ≤ ${BUDGET_KB} KB of JavaScript (brotli, as served)`, () => {
  expect(existsSync(manifestFile), 'apps/web/dist has no .vite/manifest.json: run `pnpm build` first').toBe(true);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>;
  const bySrc = (match: (src: string) => boolean, what: string) => {
    const id = Object.keys(manifest).find((k) => match(manifest[k]!.src ?? ''));
    expect(id, `${what} is not in the build's manifest`).toBeDefined();
    return id!;
  };
  const start = [
    bySrc((s) => s === 'index.html', 'the entry index.html'),
    bySrc((s) => s === 'src/app/shell.tsx', 'the shell src/app/shell.tsx'),
    bySrc((s) => s === 'src/app/layout/BasicLayout.tsx', 'the layout src/app/layout/BasicLayout.tsx'),
  ];
  const over: string[] = [];
  for (const path of new Set(Object.values(DEFAULT_PAGE))) {
    const key = keyOf(path);
    const page = bySrc((s) => s.endsWith(`/pages/${key}.tsx`), `the page ${key}`);
    const seen = new Set<string>();
    const walk = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const i of manifest[id]!.imports ?? []) walk(i);
    };
    for (const id of [...start, page]) walk(id);
    const files = [...seen]
      .map((id) => manifest[id]!.file)
      .filter((f) => f.endsWith('.js'))
      .map((f) => ({ f, kb: servedBytes(f) / 1024 }))
      .sort((a, b) => b.kb - a.kb);
    const total = files.reduce((a, x) => a + x.kb, 0);
    const line = `${path}: ${total.toFixed(1)} KB in ${files.length} files`;
    if (process.env.LANDING_JS_REPORT)
      console.log(`${line}\n${files.map((x) => `  ${x.kb.toFixed(1).padStart(6)} ${x.f}`).join('\n')}`);
    if (total > BUDGET_KB)
      over.push(
        `${line} (budget ${BUDGET_KB} KB); biggest: ${files
          .slice(0, 6)
          .map((x) => `${x.f} ${x.kb.toFixed(1)} KB`)
          .join(', ')}`,
      );
  }
  expect(over.length, over.join('\n')).toBe(0);
});
