/** The publish event's words fit notice_event.detail (500) however many suppliers a notice reaches. */
import { expect, it } from 'vitest';
import { publishDetail } from '../src/modules/notices/service.ts';

it('lists every code while they fit, else the first ones and the count', () => {
  expect(publishDetail(['S001', 'S002'])).toBe('通知 2 家供应商：S001、S002');
  const many = Array.from({ length: 2000 }, (_, i) => `VM${String(i + 1).padStart(5, '0')}`);
  const d = publishDetail(many);
  expect(d.length).toBeLessThanOrEqual(500);
  expect(d).toMatch(/^通知 2000 家供应商：VM00001、VM00002、.*VM\d{5} 等 2000 家$/);
});
