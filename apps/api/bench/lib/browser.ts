/** A browser context as a user of the portal has it: zh-CN, Shanghai time, a 1366 × 800 window (or `viewport`). */
import type { Browser, BrowserContext } from '@playwright/test';

export function portalContext(
  browser: Browser,
  base: string,
  viewport = { width: 1366, height: 800 },
): Promise<BrowserContext> {
  return browser.newContext({ baseURL: base, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', viewport });
}
