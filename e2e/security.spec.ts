/**
 * The SPA under the Content-Security-Policy (apps/api/src/plugins/security.ts),
 * in real Chromium: the journeys that stretch the policy most — pdf.js's module worker and wasm
 * decoders, a PNG preview from a blob: URL, printing (pages drawn to blob: images in a srcdoc
 * frame), antd's run-time styles, the API documentation — run without a single violation, and
 * no other site can frame a page.
 */
import { expect, test, type Page } from '@playwright/test';
import { sql } from './db.ts';
import { agreeAndContinue, expectToast, loginThroughPage, signIn, atPage } from './helpers.ts';
import { PAGES } from '../packages/contracts/src/index.ts';

test.describe.configure({ mode: 'serial' });

/** Records every CSP violation the page (or its workers) reports, as event and as console line. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const seen: string[] = [];
  const fromConsole = (text: string) => {
    if (/Content Security Policy|Refused to (load|execute|apply|create|connect|frame|evaluate|compile)/i.test(text))
      seen.push(text);
  };
  page.on('console', (m) => fromConsole(m.text()));
  page.on('worker', (w) => w.on('console', (m) => fromConsole(m.text())));
  page.on('pageerror', (e) => fromConsole(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp.push(
        `${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      ),
    );
  });
  return async () => [...seen, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))];
}

/** A file of `type` a user of the supplier may open now. */
async function openableFile(supplierCode: string, type: string): Promise<{ standard_code: string }> {
  const [f] = await sql<{ standard_code: string }>(
    `SELECT f.standard_code FROM standard_file f
     WHERE f.status = 'EFFECTIVE' AND f.file_type = $1
       AND EXISTS (SELECT 1 FROM supplier_material s WHERE s.supplier_code = $2 AND s.material_code = f.material_code)
       AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = $2 AND g.material_code = f.material_code
                   AND g.revoked_at IS NULL AND g.valid_from <= now() AND g.valid_until > now())
     ORDER BY f.standard_code LIMIT 1`,
    [type, supplierCode],
  );
  expect(f, `the demo seed has a ${type} ${supplierCode} may open`).toBeTruthy();
  return f!;
}

async function openFile(page: Page, standardCode: string) {
  await page.getByRole('textbox', { name: '标准编号' }).fill(standardCode);
  await page.getByRole('button', { name: /搜\s*索/ }).click();
  const row = page.locator('.ant-table-row').filter({ hasText: standardCode });
  await expect(page.locator('.ant-table-row')).toHaveCount(1);
  await row.getByRole('button', { name: '查看' }).click();
  // the confidentiality agreement, when this user has not accepted the current version yet
  const gate = page.locator('.esm-keepsecret-gate');
  const shown = page.locator('[data-testid=pdf-pages] canvas, [data-testid=viewer-image]');
  await expect(gate.or(shown).first()).toBeVisible();
  if (await gate.isVisible()) {
    await agreeAndContinue(gate);
  }
  await expect(shown.first()).toBeVisible();
}

test('a supplier views a PDF (pdf.js worker) and prints it, without one CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  const pdf = await openableFile('S001', 'pdf');

  const shell = page.waitForResponse(
    (r) => r.url().endsWith('/esm/login') && r.request().resourceType() === 'document',
  );
  await loginThroughPage(page, 'demo2');
  const headers = (await shell).headers();
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['content-security-policy']).not.toContain("'unsafe-eval'");
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await expect(page.locator('.ant-table-row').first()).toBeVisible();

  await openFile(page, pdf.standard_code);
  await expect(page.getByTestId('pdf-pages').locator('canvas').first()).toBeVisible();
  await expect(page.locator('.esm-pdf-page').first().locator('.textLayer')).toContainText('demo2');
  await page.getByTestId('viewer-toolbar').getByRole('button', { name: '打印' }).click();
  await expectToast(page, '已打开打印对话框');

  expect(await violations()).toEqual([]);
});

test('a supplier previews a PNG from a blob: URL without a CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  const png = await openableFile('S002', 'png');
  await signIn(page, 'demo4');
  await expect(page).toHaveURL(atPage(PAGES.dashboardS));
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await openFile(page, png.standard_code);
  const image = page.getByTestId('viewer-image');
  await expect(image).toBeVisible();
  expect(await image.getAttribute('src')).toMatch(/^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(await violations()).toEqual([]);
});

test('staff pages and the API documentation render without a CSP violation', async ({ page }) => {
  const violations = await watchCsp(page);
  await signIn(page, 'demo3');
  await expect(page).toHaveURL(atPage(PAGES.dashboard));
  await expect(page.locator('.ant-table-row').first()).toBeVisible();
  await page.goto(PAGES.drawingViewLog.path);
  await expect(page.getByText(/共 \d+ 条/)).toBeVisible();
  await page.goto('/esm-server/docs/');
  await expect(page.getByText('ESM 图纸档案门户 API')).toBeVisible();
  expect(await violations()).toEqual([]);
});

test('no other page can frame the portal', async ({ page, baseURL }) => {
  await page.goto('about:blank');
  // a page of another origin (about:blank) that frames the login page
  await page.setContent(`<iframe id="f" src="${baseURL}/esm/login" style="width:800px;height:600px"></iframe>`);
  const framed = page.frames().find((f) => f !== page.mainFrame());
  expect(framed).toBeTruthy();
  // Chromium refuses to render it (frame-ancestors 'none'): the frame ends on its error page …
  await expect.poll(() => framed!.url()).toMatch(/^chrome-error:/);
  await expect(framed!.getByPlaceholder('账号')).toHaveCount(0);
  // … while the same page opened by itself shows the login form
  await page.goto('/esm/login');
  await expect(page.getByPlaceholder('账号')).toBeVisible();
});
