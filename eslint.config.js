// ESLint (flat config): typescript-eslint's recommended rules, the rules of hooks, and the import
// boundaries of the portal — contracts import nothing of api or web, the web never imports the
// api, a feature reaches another feature only through its index.ts, and the api's lib/ and
// plugins/ (infrastructure) import no module (domain code).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const otherFeature = 'a feature imports another feature only through its index.ts';

export default tseslint.config(
  { ignores: ['**/dist/**', 'apps/api/dist-base/**', '**/node_modules/**', 'apps/api/src/generated/**', '.data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['packages/contracts/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@esm/api', '@esm/web', '**/apps/**', 'fastify', 'react', '@prisma/*'], message: 'contracts are shared by api and web: they import neither' }] }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@esm/api', '**/apps/api/**', 'fastify', '@prisma/*', 'pg'], message: 'the web never imports the api: it calls it through contracts' },
            { regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!index\\.ts$)', message: otherFeature },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/features/*/pages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/(?!index\\.ts$)', message: otherFeature }] }],
    },
  },
  {
    files: ['apps/web/src/app/**/*.{ts,tsx}', 'apps/web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '/features/[^/]+/(?!index\\.ts$)[^/]+', message: 'the shell and shared components use a feature only through its index.ts' }] }],
    },
  },
  {
    files: ['apps/api/src/lib/**/*.ts', 'apps/api/src/plugins/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/modules/**'], message: 'lib/ and plugins/ are infrastructure: they import no domain module' }] }],
    },
  },
);
