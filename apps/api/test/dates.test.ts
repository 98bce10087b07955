/**
 * lib/dates.ts: cstDayText writes the day without ICU (the first toLocaleDateString of a
 * process loads ICU's zh data, ~100 ms of CPU on a cold start). Its text must stay what
 * toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' }) writes — the messages users see.
 */
import { describe, expect, it } from 'vitest';
import { cstDayText } from '../src/lib/dates.ts';

describe('cstDayText', () => {
  it('writes what toLocaleDateString zh-CN in Asia/Shanghai writes', () => {
    const times = [
      Date.UTC(2026, 2, 4, 16, 0, 0), // 2026-03-05 00:00 in UTC+8
      Date.UTC(2026, 2, 4, 15, 59, 59), // still 2026-03-04 there
      Date.UTC(2026, 11, 31, 16, 0, 0), // new year in UTC+8, not in UTC
      Date.UTC(2024, 1, 29, 3, 0, 0), // a leap day
      Date.UTC(2030, 9, 10, 23, 30, 0),
    ];
    // and every 37 hours over four years: every month, day and hour boundary falls in
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2029, 0, 1); t += 37 * 3600_000) times.push(t);
    for (const t of times) {
      const d = new Date(t);
      expect(cstDayText(d), d.toISOString()).toBe(d.toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' }));
    }
    expect(cstDayText(new Date('2026-03-05T00:00:00+08:00'))).toBe('2026/3/5');
  });
});
