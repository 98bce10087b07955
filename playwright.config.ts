import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/chromium.ts';

/**
 * e2e journeys in Debian's Chromium (never a downloaded browser) against the real
 * server on a fresh Postgres database made by e2e/serve.ts.
 */
const PORT = Number(process.env.E2E_PORT ?? 3300);
export const E2E_DB = process.env.E2E_DATABASE ?? 'esm_e2e';

export default defineConfig({
  testDir: 'e2e',
  // Upper bounds, not waits: every step waits for a state and goes on as soon as it holds. CI is a
  // busy 2-core machine; with the load at 14 one login → first table row took over 10 s.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1366, height: 800 },
    // Antd's opening animations off (the app honours prefers-reduced-motion): clicked while a
    // dialog was still zooming in on a busy machine, a radio or a button could miss — the
    // pointer went down on it and up elsewhere — and a journey then signed 同意 instead of 退回
    // (seen in a trace of the countersign journey; most likely also why 发布 was once not sent).
    reducedMotion: 'reduce',
    trace: 'off',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      command: 'pnpm exec tsx e2e/serve.ts',
      url: `http://127.0.0.1:${PORT}/esm-server/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: { PORT: String(PORT), E2E_DATABASE: E2E_DB, LOG_LEVEL: 'warn' },
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // A second portal with the company sign-in configured (OIDC_*, a local OpenID provider):
    // e2e/oidc.spec.ts runs against it; every other journey sees the portal as configured by default.
    {
      command: 'pnpm exec tsx e2e/serve.ts',
      url: `http://127.0.0.1:${PORT + 1000}/esm-server/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: { PORT: String(PORT + 1000), E2E_DATABASE: `${E2E_DB}_oidc`, E2E_OIDC: 'true', LOG_LEVEL: 'warn' },
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
