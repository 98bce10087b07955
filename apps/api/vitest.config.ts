import { defineConfig } from 'vitest/config';

// API integration tests: test/global-setup.ts seeds one demo template database per run, and each
// test file works in a copy of its own (test/file-database.ts), so files run in parallel: two at a
// time, one per core of the 2-core CI machine. On a saturated machine that was not faster
// (docs/benchmarks.md, "Test suite"); `--maxWorkers=1` runs them one at a time.
export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/file-database.ts'],
    maxWorkers: 2,
    // a project with its own worker count runs in a group of its own: after the quick unit
    // projects (contracts, web), which keep vitest's default
    sequence: { groupOrder: 1 },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
