// The pure parts of the mixed-workload benchmark (bench/lib/capacity.ts): the rate search must
// find the highest passing rate below every failing one, and the mix must be drawn as weighted.
import { describe, expect, it } from 'vitest';
import {
  arrivalGapMs,
  meetsGoal,
  nextRate,
  seededRandom,
  sustainedRate,
  weightedPicker,
  type SearchPlan,
  type StepOutcome,
} from '../bench/lib/capacity.ts';

const plan: SearchPlan = { start: 10, factor: 2, resolution: 1.15, maxSteps: 10 };

/** A server that meets the goal up to `capacity` arrivals per second. */
const serverOf =
  (capacity: number) =>
  (rate: number): StepOutcome =>
    rate <= capacity
      ? { rate, achieved: rate, p95Ms: 120, errors: 0 }
      : { rate, achieved: capacity, p95Ms: 2000, errors: 0 };

function runSearch(capacity: number, p = plan): StepOutcome[] {
  const steps: StepOutcome[] = [];
  for (let r = nextRate(steps, p); r !== undefined; r = nextRate(steps, p)) steps.push(serverOf(capacity)(r));
  return steps;
}

describe('the rate search', () => {
  it('doubles while the goal is met, then bisects to within the resolution', () => {
    const steps = runSearch(55);
    expect(steps.slice(0, 4).map((s) => s.rate)).toEqual([10, 20, 40, 80]);
    const best = sustainedRate(steps)!;
    const lowestMiss = Math.min(...steps.filter((s) => !meetsGoal(s)).map((s) => s.rate));
    expect(best).toBeLessThanOrEqual(55);
    expect(lowestMiss).toBeGreaterThan(55);
    expect(lowestMiss / best).toBeLessThanOrEqual(plan.resolution);
  });

  it('halves a first rate that misses, and gives up below 1/s', () => {
    expect(
      runSearch(3)
        .map((s) => s.rate)
        .slice(0, 3),
    ).toEqual([10, 5, 3]);
    expect(sustainedRate(runSearch(0))).toBeUndefined();
  });

  it('stops at the step budget', () => {
    expect(runSearch(1e9, { ...plan, maxSteps: 4 })).toHaveLength(4);
  });

  it('counts errors, a p95 over 300 ms and a server falling behind as misses', () => {
    const ok: StepOutcome = { rate: 50, achieved: 50, p95Ms: 300, errors: 0 };
    expect(meetsGoal(ok)).toBe(true);
    expect(meetsGoal({ ...ok, errors: 1 })).toBe(false);
    expect(meetsGoal({ ...ok, p95Ms: 301 })).toBe(false);
    expect(meetsGoal({ ...ok, achieved: 45 })).toBe(false);
    // kept up with what was actually fired (Poisson arrivals fall a little short of the rate)
    expect(meetsGoal({ ...ok, offered: 46, achieved: 45 })).toBe(true);
  });

  it('does not report a passing rate above a failing one (a noisy step)', () => {
    const steps = [serverOf(100)(40), { rate: 60, achieved: 60, p95Ms: 900, errors: 0 }, serverOf(100)(80)];
    expect(sustainedRate(steps)).toBe(40);
  });
});

describe('the mix', () => {
  it('draws each action in proportion to its weight, the same sequence for the same seed', () => {
    const pick = weightedPicker({ a: 70, b: 29, c: 1, none: 0 }, seededRandom(1));
    const n = 100_000;
    const counts: Record<string, number> = {};
    for (let i = 0; i < n; i++) {
      const k = pick();
      counts[k] = (counts[k] ?? 0) + 1;
    }
    expect(counts.a! / n).toBeCloseTo(0.7, 2);
    expect(counts.b! / n).toBeCloseTo(0.29, 2);
    expect(counts.none).toBeUndefined();
    const again = weightedPicker({ a: 1, b: 1 }, seededRandom(9));
    const twice = weightedPicker({ a: 1, b: 1 }, seededRandom(9));
    expect(Array.from({ length: 20 }, again)).toEqual(Array.from({ length: 20 }, twice));
  });

  it('spaces arrivals exponentially with the rate as their mean', () => {
    const rand = seededRandom(3);
    const gaps = Array.from({ length: 50_000 }, () => arrivalGapMs(20, rand));
    expect(gaps.reduce((a, b) => a + b, 0) / gaps.length).toBeCloseTo(50, -1);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0);
  });
});
