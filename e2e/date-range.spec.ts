/**
 * A filter bar's date range comes with its page at once, though antd's RangePicker is fetched after
 * the page (components/DateRange.tsx): while its code is on the way a box of its size stands in,
 * nothing in the bar moves when the picker takes over, and the picker then filters the list.
 */
import { expect, test, type Route } from '@playwright/test';
import { apiUrl, signIn } from './helpers.ts';
import { empowerApi } from '../packages/contracts/src/index.ts';

test('drawingEmpowerApprove: the date range stands in at its size, then picks a range that filters the list', async ({
  page,
}) => {
  // the picker's chunk held back until the stand-in has been measured
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/rangePickerModule-[^/]+\.js$/, async (route: Route) => {
    await held;
    await route.continue();
  });
  await signIn(page, 'demo6');
  const bar = page.locator('form.ant-form-inline').first();
  const search = bar.getByRole('button', { name: '搜索' });
  const standin = bar.getByRole('textbox', { name: '申请日期' });
  await expect(standin).toHaveAttribute('placeholder', '申请开始日期 → 申请结束日期');
  const before = { field: await standin.locator('xpath=..').boundingBox(), search: await search.boundingBox() };

  release();
  const picker = bar.locator('.ant-picker-range');
  await expect(picker).toBeVisible();
  const after = { field: await picker.boundingBox(), search: await search.boundingBox() };
  expect(after.field).toEqual(before.field);
  expect(after.search).toEqual(before.search);

  const asked = page.waitForRequest(
    (r) => r.url().endsWith(apiUrl(empowerApi.applications)) && (r.postData() ?? '').includes('"dateTo":"2026-12-31"'),
  );
  await picker.getByPlaceholder('申请开始日期').fill('2026-01-01');
  await page.keyboard.press('Enter');
  await picker.getByPlaceholder('申请结束日期').fill('2026-12-31');
  await page.keyboard.press('Enter');
  expect((await asked).postData()).toContain('"dateFrom":"2026-01-01"');
});
