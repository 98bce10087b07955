/** Small numeric helpers shared by the benchmarks. */

export function median(xs: number[]): number {
  return percentile(xs, 50);
}

/** Nearest-rank percentile (p in 0..100) of an unsorted list; NaN when empty. */
export function percentile(xs: ArrayLike<number>, p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Fixed decimals, for table cells. */
export const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
