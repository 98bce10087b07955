import { defineConfig } from 'vitest/config';

// API integration tests: test/global-setup.ts seeds one demo template database per run, and each
// test file works in a copy of its own (test/file-database.ts), so files run in parallel: two at a
// time, one per core of the CI machine (docs/benchmarks.md, "Test suite"); Postgres and the files'
// own servers share those cores too.
export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/file-database.ts'],
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
