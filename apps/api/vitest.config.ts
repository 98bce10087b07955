import { defineConfig } from 'vitest/config';

// API integration tests: test/global-setup.ts seeds one demo template database per run, and each
// test file works in a copy of its own (test/file-database.ts), so files run in parallel. Three
// workers measured fastest on the 2-core CI machine (docs/benchmarks.md, "Test suite"): a file
// spends much of its time waiting on Postgres, so a third worker fills the cores.
export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/file-database.ts'],
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
