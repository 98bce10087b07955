import { expect, type Page } from '@playwright/test';

export const PASSWORD = 'Esm@2026';

/** Logs in through the login page, as a person would. */
export async function loginThroughPage(page: Page, account: string, password = PASSWORD) {
  await page.goto('/esm/login');
  await page.getByPlaceholder('账号').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Starts with the side menu unfolded (it is folded by default) so entries can be read. */
export async function unfoldMenu(page: Page) {
  await page.addInitScript(() => localStorage.setItem('esm.menu.collapsed', 'false'));
}

export async function expectToast(page: Page, text: string | RegExp) {
  await expect(page.locator('.ant-message-notice').filter({ hasText: text })).toBeVisible();
}

/** Waits until the portal shell has loaded and its calls (menu, visit) have finished. */
export async function settled(page: Page) {
  await expect(page.locator('[data-testid="breadcrumb"]')).toBeVisible();
  await page.waitForLoadState('networkidle');
}
