/**
 * Day filters (YYYY-MM-DD) are days in the portal's time zone (China Standard Time, UTC+8,
 * no daylight saving): a range covers [from 00:00, to + 1 day 00:00).
 */
const OFFSET = '+08:00';

export function dayRange(from?: string, to?: string): { gte?: Date; lt?: Date } {
  const range: { gte?: Date; lt?: Date } = {};
  if (from) range.gte = new Date(`${from}T00:00:00${OFFSET}`);
  if (to) range.lt = new Date(new Date(`${to}T00:00:00${OFFSET}`).getTime() + 86_400_000);
  return range;
}
