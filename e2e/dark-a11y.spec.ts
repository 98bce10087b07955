/**
 * The dark theme (the header's 深色主题 switch) on the pages each kind of user works on most:
 * axe-core finds no serious or critical accessibility fault there either — the light theme's
 * walk over every menu page is e2e/lists-a11y.spec.ts. Screenshots go to e2e/screenshots/.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { settled, signIn } from './helpers.ts';
import { PAGES } from '../packages/contracts/src/index.ts';

const KEY_PAGES: Record<string, string[]> = {
  demo2: [
    PAGES.dashboardS.path,
    PAGES.noticeList.path,
    PAGES.supplierDrawingEmpowerApply.path,
    PAGES.documentIssue.path,
  ],
  demo3: [PAGES.changeNoticeList.path, PAGES.drawingsAndArchivesInformation.path, PAGES.signInLog.path],
  demo5: [PAGES.documentIssueH.path],
  demo6: [PAGES.drawingEmpowerApprove.path],
};

async function axeFaults(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(' ')} ${n.any[0]?.message ?? ''}`)
          .join(' | ')}`,
    );
}

for (const [account, paths] of Object.entries(KEY_PAGES)) {
  test(`${account}: key pages in the dark theme have no serious accessibility fault`, async ({ page }) => {
    test.setTimeout(300_000);
    await signIn(page, account);
    await settled(page);
    await page.evaluate(() => localStorage.setItem('esm.theme', JSON.stringify('dark')));
    const faults: string[] = [];
    for (const path of paths) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto(path);
        await settled(page);
        // the dark theme is on: the page's background is dark
        expect(
          await page.evaluate(
            () => getComputedStyle(document.querySelector('.ant-layout') ?? document.body).backgroundColor,
          ),
        ).not.toMatch(/rgb\(2[45]\d, 2[45]\d, 2[45]\d\)/);
        await page.screenshot({ path: `e2e/screenshots/dark-${account}${path.replace(/\//g, '_')}-${width}.png` });
        for (const f of await axeFaults(page)) faults.push(`${path} at ${width}: ${f}`);
      }
    }
    expect(faults, faults.join('\n')).toEqual([]);
  });
}
