/**
 * The portal's time zone in one place: China Standard Time, UTC+8, no daylight saving. Day
 * filters (YYYY-MM-DD) are days here; texts shown to users (exports, watermarks, refusals) are
 * written here.
 */
const OFFSET = '+08:00';
const OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DDTHH:mm:ss` of a time in UTC+8. */
const cstIso = (d: Date) => new Date(d.getTime() + OFFSET_MS).toISOString().slice(0, 19);

/** A day filter range: [from 00:00, to + 1 day 00:00) in UTC+8. */
export function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } {
  const range: { gte?: Date; lt?: Date } = {};
  if (from) range.gte = new Date(`${from}T00:00:00${OFFSET}`);
  if (to) range.lt = new Date(new Date(`${to}T00:00:00${OFFSET}`).getTime() + DAY_MS);
  return range;
}

/** `YYYY-MM-DD` in UTC+8. */
export const cstDay = (d: Date): string => cstIso(d).slice(0, 10);

/**
 * The day as a Chinese reader writes it, `2026/3/5`, in UTC+8 (messages). What
 * `toLocaleDateString('zh-CN', { timeZone: 'Asia/Shanghai' })` writes, without it: its first call
 * in a process loads ICU's zh data (~100 ms of CPU, paid by the first supplier view of a cold
 * start). Unit-tested against it (test/dates.test.ts).
 */
export const cstDayText = (d: Date): string => {
  const [y, m, day] = cstDay(d).split('-');
  return `${Number(y)}/${Number(m)}/${Number(day)}`;
};

/** `YYYY-MM-DD HH:mm` in UTC+8 (watermarks). */
export const cstMinute = (d: Date): string => cstIso(d).slice(0, 16).replace('T', ' ');

/** `YYYY-MM-DD HH:mm:ss` in UTC+8, '' for none (exports). */
export const cstDateTime = (d: Date | null): string => (d ? cstIso(d).replace('T', ' ') : '');

/** `YYYYMMDDHHmmss` in UTC+8 (file names). */
export const cstStamp = (d: Date): string => cstIso(d).replace(/\D/g, '');

/** The UTC+8 day of a time as a DATE column value (midnight UTC of that day). */
export const cstDateValue = (d: Date): Date => new Date(`${cstDay(d)}T00:00:00Z`);
