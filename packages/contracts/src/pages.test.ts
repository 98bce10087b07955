/**
 * The pages' declaration holds: every page's path, menu id and key is unique, and no production
 * file writes a page's path itself — it takes it from PAGES (or a constant derived from it), so a
 * page is renamed or moved in one place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GROUPS, PAGES, ROUTES, groupPath, routeByPath, type GroupKey } from './pages.ts';
import { MENU_RULES } from './ui.ts';
import { ALL_ENDPOINTS } from './endpoints.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Production code: the tests and e2e specs may write a path out as the expectation they check. */
const SOURCES = ['apps/api/src', 'apps/web/src', 'packages/contracts/src'];
/** Where the paths are declared. */
const DECLARATION = new Set(['packages/contracts/src/pages.ts', 'packages/contracts/src/routes.ts']);

const files = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? files(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );

/**
 * A page path written out in code: `/esm/<name>` or `${BASE_PATH}/<name>` (a string, a template, a
 * template's `${…}` segment). Comments are left out (they may name the page they describe), and so
 * are the paths of files the server sends from under /esm (the bundle, pdf.js, the logo).
 */
const PAGE_PATH = /(?:\/esm|\$\{BASE_PATH\})\/(?!assets\/|pdfjs\/|logo\.svg)(?:[A-Za-z]|\$\{)/;
const code = (line: string) => {
  const t = line.trim();
  if (t.startsWith('//') || t.startsWith('*') || t.startsWith('/*')) return '';
  return line.replace(/\s\/\/\s.*$/, '').replace(/\/\*.*?\*\//g, '');
};

describe('PAGES', () => {
  it('gives every page its own path, key and menu id, and every group its own id', () => {
    const paths = ROUTES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    const ids = [...ROUTES.map((p) => p.menu.id), ...Object.values(GROUPS).map((g) => g.id)];
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, p] of Object.entries(PAGES)) {
      expect(p.key).toBe(key);
      expect(routeByPath.get(p.path)).toBe(p);
      expect(p.path).toBe(p.group ? `${groupPath(p.group)}/${p.page}` : `/esm/${p.page}`);
      expect(p.menu.parent).toBe(p.menu.parent === -1 ? -1 : p.group ? GROUPS[p.group].id : null);
    }
  });

  it('a page outside the side menu has no icon; the side menu rules name declared rows', () => {
    for (const p of ROUTES) if (p.menu.parent === -1 || p.menu.skipInSideMenu) expect(p.menu.icon, p.key).toBeNull();
    const groupIds: number[] = Object.values(GROUPS).map((g) => g.id);
    for (const id of MENU_RULES.openGroupIds) expect(groupIds).toContain(id);
    for (const id of MENU_RULES.skippedIds) expect(ROUTES.map((p) => p.menu.id)).toContain(id);
  });

  it('every group has a page, and its user types include its pages’ (a page is reached through its group)', () => {
    for (const [key, g] of Object.entries(GROUPS)) {
      const pages = ROUTES.filter((p) => p.group === (key as GroupKey));
      expect(pages.length, key).toBeGreaterThan(0);
      for (const p of pages)
        for (const t of p.menu.types) expect(g.types as readonly number[], `${p.key} type ${t}`).toContain(t);
    }
  });

  it('no production file writes a page path: it names PAGES.<key>.path (or a constant taken from it)', () => {
    const found: string[] = [];
    for (const dir of SOURCES)
      for (const file of files(dir)) {
        if (DECLARATION.has(file.split('\\').join('/'))) continue;
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (PAGE_PATH.test(code(line))) found.push(`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${line.trim()}`);
          });
      }
    expect(found).toEqual([]);
  });

  it('declares each button and governed column once, with its page: every call and row schema takes them from there, and each is used', () => {
    const declaredButtons = ROUTES.flatMap((p) => Object.values(p.buttons));
    const declaredColumns = ROUTES.flatMap((p) =>
      Object.entries(p.columns).map(([field, label]) => `${p.path} ${field} ${label}`),
    );
    const usedButtons = new Set(ALL_ENDPOINTS.flatMap((e) => (e.button ? [e.button] : [])));
    const usedColumns = new Set(
      ALL_ENDPOINTS.flatMap((e) =>
        Object.entries(e.columns?.columns ?? {}).map(([field, label]) => `${e.columns!.page} ${field} ${label}`),
      ),
    );
    // a call's button is the very object PAGES derived (not a copy that could drift), and no declared button goes unused
    for (const b of usedButtons) expect(declaredButtons, `${b.page} ${b.code}`).toContain(b);
    for (const b of declaredButtons) expect(usedButtons.has(b), `${b.page} ${b.code} has no call`).toBe(true);
    expect([...usedColumns].filter((c) => !declaredColumns.includes(c))).toEqual([]);
    expect(declaredColumns.filter((c) => !usedColumns.has(c))).toEqual([]);
  });
});
