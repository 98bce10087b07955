/**
 * Helpers for writing the demo data a table at a time (issue 16): one INSERT per table instead of
 * one statement per row took most of the demo seed's time off a cold start — every statement
 * through Prisma costs its query compilation and a round through PGlite.
 */

/**
 * The rows `createManyAndReturn` gave back, in the order of the data it was given: one INSERT
 * takes its ids from the sequence in the order of its VALUES, so ordering by id restores it (the
 * order RETURNING lists rows in is not promised). Checked against the count asked for.
 */
export function inInsertOrder<T extends { id: number }>(rows: T[], expected: number): T[] {
  if (rows.length !== expected) throw new Error(`demo seed: ${expected} rows written, ${rows.length} returned`);
  return [...rows].sort((a, b) => a.id - b.id);
}
