import { defineConfig } from 'vitest/config';

// One vitest run for the unit and API integration tests of every package (README's test command).
export default defineConfig({
  test: {
    projects: ['apps/api', 'packages/contracts', 'apps/web'],
  },
});
