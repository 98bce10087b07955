// ESLint (flat config): typescript-eslint's recommended rules, the rules of hooks, and the import
// boundaries. One block per package (web, api, contracts), each holding ALL of that package's
// import rules: flat config replaces a rule's options wholesale when a later block matching the
// same file sets it again, so a second `no-restricted-imports` block for a sub-folder would
// silently drop the package-wide bans.
//
// - contracts import nothing of api or web (they are shared by both);
// - the web never imports the api; components/ and lib/ (shared by every page) import no
//   feature and no app/; app/ and features reach a feature only through its index.ts;
// - an api module (and db/) reaches a module only through its index.ts — the demo seed also
//   through the module's demo.ts, its demo rows; lib/ and
//   plugins/ (infrastructure) import no module;
// - no import cycle anywhere (import-x/no-cycle).
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';

const subdirs = (dir) =>
  fs
    .readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

// A folder X may use another folder Y of the same kind only through Y/index.ts.
const onlyThroughIndex = (root, names, message) =>
  names.flatMap((x) =>
    names
      .filter((y) => y !== x)
      .map((y) => ({ target: `${root}/${x}`, from: `${root}/${y}`, except: ['./index.ts'], message })),
  );

const WEB = './apps/web/src';
const API = './apps/api/src';
const features = subdirs(`${WEB}/features`);
const modules = subdirs(`${API}/modules`);

// Cycles are searched only through the project's own files (not node_modules), and no deeper
// than any cycle this tree has had: the check stays a second or two on a 2-core machine.
const noCycle = ['error', { ignoreExternal: true, maxDepth: 20 }];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      'apps/api/dist-base/**',
      '**/node_modules/**',
      'apps/api/src/generated/**',
      '.data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs'] })],
    },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@esm/api', '@esm/web', '**/apps/**', 'fastify', 'react', '@prisma/*'],
              message: 'contracts are shared by api and web: they import neither',
            },
          ],
        },
      ],
      'import-x/no-cycle': noCycle,
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@esm/api', '**/apps/api/**', 'fastify', '@prisma/*', 'pg'],
              message: 'the web never imports the api: it calls it through contracts',
            },
          ],
        },
      ],
      'import-x/no-cycle': noCycle,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [`${WEB}/components`, `${WEB}/lib`],
              from: [`${WEB}/features`, `${WEB}/app`],
              message:
                'components/ and lib/ are shared by every page: they import no feature and no app/ (a page or app/ composes them)',
            },
            ...features.map((f) => ({
              target: `${WEB}/app`,
              from: `${WEB}/features/${f}`,
              except: ['./index.ts'],
              message: 'the shell uses a feature only through its index.ts',
            })),
            ...onlyThroughIndex(
              `${WEB}/features`,
              features,
              'a feature imports another feature only through its index.ts; a widget several features use belongs in components/',
            ),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    rules: {
      'import-x/no-cycle': noCycle,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: [`${API}/lib`, `${API}/plugins`],
              from: `${API}/modules`,
              message: 'lib/ and plugins/ are infrastructure: they import no domain module',
            },
            ...onlyThroughIndex(
              `${API}/modules`,
              modules,
              'a module imports another module only through its index.ts; infrastructure several modules use belongs in lib/',
            ),
            ...modules.map((m) => ({
              target: `${API}/db`,
              from: `${API}/modules/${m}`,
              except: ['./index.ts', './demo.ts'],
              message:
                "the database code uses a module only through its index.ts (the demo seed composes each module's demo.ts)",
            })),
          ],
        },
      ],
    },
  },
);
