/**
 * A call's path and a page's path are written once, in their declaration: the endpoint object in
 * contracts (`noticesApi.create.path`) and the page's entry in PAGES (`PAGES.dashboard.path`).
 * Code and tests name the declaration (`callApi(app, noticesApi.create, …)`,
 * `page.goto(PAGES.dashboard.path)`, `apiUrl(…)` and `atPage(…)` in e2e/helpers.ts), so a path
 * that changes changes in one place and a test cannot keep checking the old one.
 *
 * Scanned: every string literal and template piece (with or without the `/esm-server/api/` or
 * `/esm` prefix, with or without a query after it, or the last two segments or more of a path:
 * `endsWith('/tableChangeLog/publish')`) and every regular expression literal that ends in a
 * declared path or its last segments (`toHaveURL(/dashboardS$/)`), in the api, the web and the
 * journeys. A path no contract declares (an unknown route for a 404, the login page, a
 * group's path) is not a declared path and stays as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS, API_BASE, BASE_PATH, ROUTES } from '@esm/contracts';
import { paths } from '../src/config.ts';

/** Where paths are used; `packages/contracts` is where they are declared. */
const SCANNED = ['apps/api/src', 'apps/api/test', 'apps/web/src', 'e2e'];

/** Files that write declared paths on purpose: file → why. Each compares what it writes with the declarations. */
const ALLOWED: Record<string, string> = {
  'apps/api/test/menu.test.ts':
    'the legacy portal’s menu of each user type, written out by hand: the server’s menu (built from PAGES) must equal it',
  'apps/api/test/access.test.ts':
    'the legacy portal’s call URLs, written out by hand: the registered routes (built from the contracts) must include them',
};

const CALL_PATHS = new Set(ALL_ENDPOINTS.map((e) => e.path));
const PAGE_PATHS = new Set(ROUTES.map((p) => p.path));
const ALL_PATHS = [...CALL_PATHS, ...PAGE_PATHS];

const files = (dir: string): string[] =>
  readdirSync(join(paths.root, dir), { withFileTypes: true }).flatMap((e) =>
    e.name === 'node_modules' || e.name === 'dist' || e.name === 'generated'
      ? []
      : e.isDirectory()
        ? files(join(dir, e.name))
        : /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts')
          ? [join(dir, e.name)]
          : [],
  );

/**
 * The declared path a string (or template piece) is, if it is one: `user/login`,
 * `/esm-server/api/user/login`, `POST /esm-server/api/user/login`, `/esm/dashboard?id=1`.
 */
export function declaredPath(text: string): string | undefined {
  const t = text
    .trim()
    .replace(/^(GET|POST|PUT|DELETE) /, '')
    .split(/[?#]/)[0]!;
  const call = t.startsWith(`${API_BASE}/`) ? t.slice(API_BASE.length + 1) : t.replace(/^\//, '');
  if (CALL_PATHS.has(call)) return call;
  if (!t.startsWith('/')) return undefined;
  const page = t.startsWith(`${BASE_PATH}/`) ? t : `${BASE_PATH}${t}`;
  if (PAGE_PATHS.has(page)) return page;
  // the last two segments or more of a declared path: `/tableChangeLog/publish`, `/supplier/dashboardS`
  if (t.split('/').length < 3) return undefined;
  return ALL_PATHS.find((p) => `/${p.replace(/^\//, '')}`.endsWith(t));
}

/** The declared path a regular expression's text ends in (`\/esm\/dashboard$`, `dashboardS$`), if any. */
export function declaredPathInPattern(source: string): string | undefined {
  const t = source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\\([/?.])/g, '$1')
    .split('?')[0]!;
  if (!t || /[\\()[\]{}*+|^$]/.test(t)) return undefined;
  const tail = `/${t.replace(/^\//, '')}`;
  return ALL_PATHS.find((p) => p === t || `/${p}`.endsWith(tail));
}

/** Each literal of `file` that writes a declared path: `file:line: path (as written)`. */
export function pathsWrittenIn(file: string, text = readFileSync(join(paths.root, file), 'utf8')): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let path: string | undefined;
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      path = declaredPath(node.text);
    else if (ts.isRegularExpressionLiteral(node))
      path = declaredPathInPattern(node.text.slice(1, node.text.lastIndexOf('/')));
    if (path) {
      const line = src.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${file}:${line}: ${path} (${node.getText().slice(0, 80)})`);
    }
    node.forEachChild(visit);
  };
  visit(src);
  return found;
}

describe('call and page paths', () => {
  it('are written only in their declaration: everywhere else the endpoint object or PAGES is named', () => {
    const scanned = SCANNED.flatMap(files).map((f) => f.split('\\').join('/'));
    expect(scanned.length).toBeGreaterThan(300);
    const found = scanned.filter((f) => !(f in ALLOWED)).flatMap((f) => pathsWrittenIn(f));
    expect(found).toEqual([]);
  });

  it('the allowed files exist and still write paths (an entry that no longer needs its exception goes)', () => {
    for (const file of Object.keys(ALLOWED)) expect(pathsWrittenIn(file).length, file).toBeGreaterThan(0);
  });

  it('finds a path written by hand in each of its forms, and leaves undeclared ones alone', () => {
    const written = (code: string) => pathsWrittenIn('x.ts', code).map((f) => f.split(': ')[1]!.split(' ')[0]);
    const page = [...PAGE_PATHS][0]!;
    const call = [...CALL_PATHS][0]!;
    const last = page.split('/').at(-1)!;
    expect(
      written(
        [
          `post('${call}');`,
          `fetch('${API_BASE}/${call}');`,
          'fetch(`${base}' + `${API_BASE}/${call}` + '`);',
          `goto('${page}');`,
          'goto(`' + page + '?id=${id}`);',
          `expect(url).toMatch(/${page.replace(/\//g, '\\/')}$/);`,
          `expect(url).toMatch(/${last}$/);`,
          `r.url().endsWith('/${call.split('/').slice(-2).join('/')}');`,
        ].join('\n'),
      ),
    ).toEqual([call, call, call, page, page, page, page, call]);
    expect(written(`goto('${BASE_PATH}/no/such/page'); post('no/such/call'); const s = '${last} 页';`)).toEqual([]);
  });
});
