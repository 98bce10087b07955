/**
 * The pure parts of a capacity benchmark (bench/mixed-workload.ts), kept apart so they are unit
 * tested (test/bench-capacity.test.ts): a seeded random source (every run offers the same
 * sequence of actions at the same moments), a weighted pick of the next action, Poisson arrival
 * gaps, and the search over arrival rates for the highest one that still meets the latency goal.
 */

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks a name with probability weight / Σ weights. */
export function weightedPicker<K extends string>(weights: Record<K, number>, rand: () => number): () => K {
  const entries = (Object.entries(weights) as [K, number][]).filter(([, w]) => w > 0);
  const total = entries.reduce((s, [, w]) => s + w, 0);
  if (!(total > 0)) throw new Error('weights must have a positive sum');
  return () => {
    let x = rand() * total;
    for (const [k, w] of entries) if ((x -= w) < 0) return k;
    return entries.at(-1)![0];
  };
}

/** ms to the next arrival of a Poisson process at `perSecond`: independent users, not a metronome. */
export const arrivalGapMs = (perSecond: number, rand: () => number) => (-Math.log(1 - rand()) * 1000) / perSecond;

/** What one load step gave, as far as the search is concerned. */
export interface StepOutcome {
  /** The arrival rate asked for (per second). */
  rate: number;
  /** Arrivals actually fired per second (Poisson: a little off the rate); the rate when absent. */
  offered?: number;
  /** Successful answers per second, the drain after the last arrival included (a backlog lowers it). */
  achieved: number;
  p95Ms: number;
  errors: number;
}

export interface SearchGoal {
  /** The latency goal (300 ms). */
  p95Ms: number;
  /** A step whose server kept up with less than this share of the offered rate fails (a backlog builds). */
  keepUp: number;
}

export const ISSUE_GOAL: SearchGoal = { p95Ms: 300, keepUp: 0.95 };

export const meetsGoal = (s: StepOutcome, goal: SearchGoal = ISSUE_GOAL) =>
  s.errors === 0 && s.p95Ms <= goal.p95Ms && s.achieved >= goal.keepUp * (s.offered ?? s.rate);

export interface SearchPlan {
  start: number;
  /** Rates are multiplied by this while every step meets the goal. */
  factor: number;
  /** Bisection stops when the failing rate is within this ratio of the passing one. */
  resolution: number;
  maxSteps: number;
}

/**
 * The next rate to offer, or undefined when the search is done: multiply by `factor` while the
 * steps meet the goal; after the first miss, bisect between the highest passing and the lowest
 * failing rate until they are within `resolution` of each other (or the step budget is spent).
 * A miss at the very first rate halves it (down to 1/s).
 */
export function nextRate(history: StepOutcome[], plan: SearchPlan, goal: SearchGoal = ISSUE_GOAL): number | undefined {
  if (history.length === 0) return plan.start;
  if (history.length >= plan.maxSteps) return undefined;
  const pass = history.filter((s) => meetsGoal(s, goal)).map((s) => s.rate);
  const fail = history.filter((s) => !meetsGoal(s, goal)).map((s) => s.rate);
  const hi = fail.length ? Math.min(...fail) : undefined;
  const lo = pass.filter((r) => hi === undefined || r < hi);
  const best = lo.length ? Math.max(...lo) : undefined;
  if (hi === undefined) return Math.round(best! * plan.factor);
  if (best === undefined) return hi / 2 >= 1 ? Math.round(hi / 2) : undefined;
  if (hi / best <= plan.resolution) return undefined;
  const mid = Math.round(Math.sqrt(best * hi));
  return mid > best && mid < hi ? mid : undefined;
}

/** The highest offered rate that met the goal below every rate that missed it (undefined: none did). */
export function sustainedRate(history: StepOutcome[], goal: SearchGoal = ISSUE_GOAL): number | undefined {
  const fail = history.filter((s) => !meetsGoal(s, goal)).map((s) => s.rate);
  const hi = fail.length ? Math.min(...fail) : Infinity;
  const ok = history.filter((s) => meetsGoal(s, goal) && s.rate < hi).map((s) => s.rate);
  return ok.length ? Math.max(...ok) : undefined;
}
