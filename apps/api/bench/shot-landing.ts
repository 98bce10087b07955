/** Screenshots of the landing page after the sign-in: SHOT_DIR, 1366×800 and 600 px; DOM counts. BASE_URL: a running server. */
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { portalContext } from './lib/browser.ts';

const base = process.env.BASE_URL ?? 'http://127.0.0.1:3341';
const dir = process.env.SHOT_DIR ?? '/tmp/landing-shots';
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const [w, h] of [
    [1366, 800],
    [600, 900],
  ] as const) {
    const context = await portalContext(browser, base, { width: w, height: h });
    // SHOT_THEME=dark: the portal's dark theme (preferences.ts), expanded menu
    if (process.env.SHOT_THEME)
      await context.addInitScript(
        `localStorage.setItem('esm.theme', JSON.stringify('${process.env.SHOT_THEME}')); localStorage.setItem('esm.menu.collapsed', 'false');`,
      );
    const page = await context.newPage();
    await page.goto('/esm/login');
    await page.getByPlaceholder('账号').fill('demo3');
    await page.getByPlaceholder('密码').fill('Esm@2026');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
    await page.locator('#root .ant-table-tbody tr.ant-table-row').first().waitFor();
    await page.waitForFunction(() => !document.querySelector('#root .ant-spin-spinning'));
    await page.waitForTimeout(4000); // the toast gone, fonts and images in (a screenshot, not a test)
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${dir}/landing-${w}${process.env.SHOT_THEME ?? ''}.png`, fullPage: true });
    if (process.env.SHOT_DIALOGS) {
      // the upload dialog and the status select's options (portals: popups styled the same way)
      await page.getByRole('button', { name: /上传文件/ }).click();
      await page.locator('.ant-modal').waitFor();
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${dir}/upload-${w}${process.env.SHOT_THEME ?? ''}.png` });
      await page.keyboard.press('Escape');
      await page.locator('.ant-modal').waitFor({ state: 'hidden' });
      await page.locator('.ant-select').first().click();
      await page.locator('.ant-select-dropdown').waitFor();
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `${dir}/select-${w}${process.env.SHOT_THEME ?? ''}.png` });
    }
    const counts = await page.evaluate(() => ({
      elements: document.querySelectorAll('*').length,
      rootElements: document.querySelectorAll('#root *').length,
      styles: document.querySelectorAll('style').length,
      styleBytes: [...document.querySelectorAll('style')].reduce((a, s) => a + (s.textContent?.length ?? 0), 0),
      buttons: document.querySelectorAll('#root .ant-btn').length,
      rows: document.querySelectorAll('#root .ant-table-row').length,
      cells: document.querySelectorAll('#root .ant-table-cell').length,
      menuItems: document.querySelectorAll('#root .ant-menu-item, #root .ant-menu-submenu').length,
      treeNodes: document.querySelectorAll('#root .ant-tree-treenode').length,
      formItems: document.querySelectorAll('#root .ant-form-item').length,
      selects: document.querySelectorAll('#root .ant-select').length,
      icons: document.querySelectorAll('#root .anticon').length,
    }));
    console.log(w, JSON.stringify(counts));
    if (process.env.SHOT_HTML)
      (await import('node:fs')).writeFileSync(`${dir}/landing-${w}.html`, await page.content());
    await context.close();
  }
} finally {
  await browser.close();
}
