import { defineConfig } from 'vitest/config';

// API integration tests run against one fresh Postgres database per run (test/global-setup.ts),
// so files run one after another: they share that database and the machine is small.
export default defineConfig({
  test: {
    name: 'api',
    environment: 'node',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
