import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure logic (menu tree, breadcrumb).
export default defineConfig({
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
