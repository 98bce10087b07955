/**
 * An application's period is days (YYYY-MM-DD in UTC+8, both ends included); a grant is the
 * instants [first day 00:00, day after the last 00:00) in UTC+8. These convert between the two
 * and the DATE columns (midnight UTC of the day, as Prisma reads them).
 */
import { cstDay, dayRange } from '../../lib/dates.ts';

const DAY_MS = 86_400_000;

/** The day `n` days after `day`. */
export const addDays = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** How many days from `from` to `until`, both included. */
export const daysIncluded = (from: string, until: string): number =>
  Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** A DATE column's value for a day, and back. */
export const dateValue = (day: string): Date => new Date(`${day}T00:00:00Z`);
export const dayOf = (d: Date): string => d.toISOString().slice(0, 10);
export const dayOrNull = (d: Date | null): string | null => (d ? dayOf(d) : null);

/** The grant's instants for days `from` … `until`. */
export function grantWindow(from: string, until: string): { validFrom: Date; validUntil: Date } {
  const { gte, lt } = dayRange(from, until);
  return { validFrom: gte!, validUntil: lt! };
}

/** Today in UTC+8. */
export const today = (now: Date): string => cstDay(now);
