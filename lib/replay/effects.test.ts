import { describe, expect, it } from "vitest";
import { agreement, averageRanks, confirmedByReplay, measuredEffect, newcombeInterval, outcomeOf, signedEffect, spearman } from "./effects";

const bin = (xs: number[]) => xs.map((value) => ({ value, binary: true }));

describe("measured effects (SPEC.md section 11)", () => {
  it("outcome: E1 when known, else R_total", () => {
    expect(outcomeOf(1, -0.4)).toEqual({ value: 1, binary: true });
    expect(outcomeOf(null, -0.4)).toEqual({ value: -0.4, binary: false });
  });

  it("Newcombe's hybrid interval: his worked example 56/70 vs 48/80", () => {
    // Newcombe (1998), Statistics in Medicine 17:873, example (a): difference 0.2000, method 10 interval 0.0524 to 0.3339
    const r = newcombeInterval(56, 70, 48, 80)!;
    expect(r.diff).toBeCloseTo(0.2, 12);
    expect(r.low).toBeCloseTo(0.0524, 4);
    expect(r.high).toBeCloseTo(0.3339, 4);
  });

  it("Newcombe by hand: 3/3 forks succeed against 0/1 baseline", () => {
    // Wilson 3/3: z^2 = 3.841458820694124; centre = (1 + z2/6)/(1 + z2/3) = 1.640243136782354/2.280486273564708 = 0.71925...
    const z2 = 1.959963984540054 ** 2;
    const c3 = (1 + z2 / 6) / (1 + z2 / 3);
    const h3 = (1.959963984540054 * Math.sqrt(z2 / 36)) / (1 + z2 / 3);
    const l3 = c3 - h3; // 0.43849...
    // Wilson 0/1: centre = (z2/2)/(1 + z2) ; half = z*sqrt(z2/4)/(1+z2) -> low 0, high = z2/(1+z2) = 0.79347...
    const u1 = z2 / (1 + z2);
    const r = newcombeInterval(3, 3, 0, 1)!;
    expect(r.diff).toBe(1);
    expect(r.low).toBeCloseTo(1 - Math.sqrt((1 - l3) ** 2 + u1 ** 2), 12);
    expect(r.high).toBeCloseTo(1, 12);
    expect(l3).toBeCloseTo(0.43850, 4);
    expect(u1).toBeCloseTo(0.79347, 4);
    // 1 - sqrt(0.56150^2 + 0.79347^2) = 1 - sqrt(0.31528 + 0.62960) = 1 - 0.97205
    expect(r.low).toBeCloseTo(0.02795, 4);
  });

  it("effect = mean(forks) - mean(baseline); binary outcomes carry Wilson and Newcombe intervals", () => {
    const e = measuredEffect(bin([1, 1, 0]), bin([0, 0]));
    expect(e.effect).toBeCloseTo(2 / 3, 12);
    expect(e.binary).toBe(true);
    expect(e.forks).toMatchObject({ mean: 2 / 3, n: 3 });
    expect(e.baseline).toMatchObject({ mean: 0, low: 0, n: 2 });
    const n = newcombeInterval(2, 3, 0, 2)!;
    expect(e.low).toBe(n.low);
    expect(e.high).toBe(n.high);
  });

  it("an R_total outcome on either side: no interval", () => {
    const e = measuredEffect([{ value: 0.5, binary: false }, { value: -0.1, binary: false }], [{ value: 1, binary: true }]);
    expect(e.effect).toBeCloseTo(0.2 - 1, 12);
    expect(e).toMatchObject({ low: null, high: null, binary: false });
    expect(measuredEffect([], bin([1])).effect).toBeNull();
  });

  it("average ranks for ties", () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1]);
  });

  it("Spearman by hand, with ties; null under 3 or for a constant side", () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1, 12);
    // ranks x = [1, 2, 3], y = [1.5, 1.5, 3]: mean 2 both; sxy = (-1)(-0.5) + 0 + (1)(1) = 1.5; sxx = 2; syy = 0.25+0.25+1 = 1.5
    expect(spearman([0.1, 0.2, 0.9], [0, 0, 1])).toBeCloseTo(1.5 / Math.sqrt(2 * 1.5), 12);
    expect(spearman([1, 2], [1, 2])).toBeNull();
    expect(spearman([1, 2, 3], [1, 1, 1])).toBeNull();
  });

  it("agreement reverses removal and neutralising edits", () => {
    expect(signedEffect(-1, "remove")).toBe(1);
    expect(signedEffect(-1, "neutralise")).toBe(1);
    expect(signedEffect(-1, "correct")).toBe(-1);
    // removing a high-credit call lowers the outcome most: agreement +1
    const calls = [{ credit: 0.9, effect: signedEffect(-1, "remove") }, { credit: 0.2, effect: signedEffect(-0.5, "remove") }, { credit: -0.3, effect: signedEffect(0, "remove") }];
    expect(agreement(calls)).toBeCloseTo(1, 12);
    expect(agreement(calls.slice(0, 2))).toBeNull();
  });

  it("confirmed by replay: a majority of at least 3 corrected samples succeed where the baseline failed", () => {
    expect(confirmedByReplay(measuredEffect(bin([1, 1, 0]), bin([0])))).toBe(true);
    expect(confirmedByReplay(measuredEffect(bin([1, 0, 0]), bin([0])))).toBe(false);
    expect(confirmedByReplay(measuredEffect(bin([1, 1]), bin([0])))).toBeNull();
    expect(confirmedByReplay(measuredEffect(bin([1, 1, 1]), bin([1, 0])))).toBeNull();
  });
});
