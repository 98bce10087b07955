/**
 * A server error the user can quote: the toast's 请求编号 is the X-Request-Id of the failed answer
 * (the API test observability.test.ts shows the same id in the server's log line).
 */
import { expect, test, type Response } from '@playwright/test';
import { sql } from './db.ts';
import { settled, signIn, unfoldMenu, atPage } from './helpers.ts';
import { PAGES } from '../packages/contracts/src/index.ts';

test('a real 5xx shows 请求编号 equal to the answer’s X-Request-Id', async ({ page }) => {
  await unfoldMenu(page);
  await signIn(page, 'demo7');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await settled(page);
  const failed: Response[] = [];
  page.on('response', (r) => void (r.url().includes('/esm-server/api/') && r.status() >= 500 && failed.push(r)));
  // A genuine server failure, not a mocked answer: the page's table is gone from the database
  // (an operator's mistake), so its list call fails inside the server with a 500.
  await sql('ALTER TABLE problem_type RENAME TO problem_type_away');
  try {
    await page.getByTestId('side-menu').getByText('人员管理', { exact: true }).click();
    await page.getByTestId('side-menu').getByText('SQE及产品线管理', { exact: true }).click();
    const toast = page.locator('.ant-message-notice').filter({ hasText: /请求编号 / });
    await expect(toast).toBeVisible();
    const quoted = /请求编号 ([\w-]+)/.exec(await toast.innerText())?.[1];
    await expect.poll(() => failed.length).toBeGreaterThan(0);
    const ids = failed.map((r) => r.headers()['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ids).toContain(quoted);
    expect(await toast.innerText()).toContain('系统异常');
  } finally {
    await sql('ALTER TABLE problem_type_away RENAME TO problem_type');
  }
});
