import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Z_95 } from "../stats/wilson";
import { withinGroupDifference } from "./difference";

describe("withinGroupDifference (Mantel-Haenszel risk difference, Greenland-Robins variance)", () => {
  it("matches a hand computation over two groups", () => {
    // group 1: with 2/3, without 1/2 (N 5): (2*2 - 1*3)/5 = 0.2, weight 3*2/5 = 1.2, variance term (2*1*8 + 1*1*27)/(3*2*25) = 43/150
    // group 2: with 1/1, without 0/3 (N 4): (1*3 - 0)/4 = 0.75, weight 3/4 = 0.75, variance term 0
    // RD = 0.95 / 1.95 = 19/39; Var = (43/150) / 1.95^2
    const d = withinGroupDifference([{ n1: 3, a: 2, n0: 2, c: 1 }, { n1: 1, a: 1, n0: 3, c: 0 }]);
    const se = Math.sqrt(43 / 150) / 1.95;
    expect(d.estimate).toBeCloseTo(19 / 39, 12);
    expect(d.low).toBeCloseTo(19 / 39 - Z_95 * se, 12);
    expect(d.low).toBeCloseTo(-0.05096894321886508, 12);
    expect(d.high).toBe(1); // 1.0253 clamped
    expect(d).toMatchObject({ groups: 2, with: 4, without: 5 });
  });

  it("with one group is p1 - p0 with the two-sample variance", () => {
    const d = withinGroupDifference([{ n1: 4, a: 3, n0: 5, c: 1 }]);
    const se = Math.sqrt((0.75 * 0.25) / 4 + (0.2 * 0.8) / 5);
    expect(d.estimate).toBeCloseTo(0.55, 12);
    expect(d.low).toBeCloseTo(0.55 - Z_95 * se, 12);
    expect(d.high).toBeCloseTo(Math.min(1, 0.55 + Z_95 * se), 12);
  });

  it("groups without both arms are no stratum; none gives nulls", () => {
    expect(withinGroupDifference([{ n1: 3, a: 1, n0: 0, c: 0 }, { n1: 0, a: 0, n0: 2, c: 2 }])).toEqual({
      method: "mantel_haenszel_risk_difference", estimate: null, low: null, high: null, groups: 0, with: 0, without: 0,
    });
  });

  it("stays in [-1, 1] with low <= estimate <= high", () => {
    const stratum = fc.record({ n1: fc.integer({ min: 0, max: 8 }), n0: fc.integer({ min: 0, max: 8 }), a: fc.nat(), c: fc.nat() }).map((s) => ({ ...s, a: s.n1 === 0 ? 0 : s.a % (s.n1 + 1), c: s.n0 === 0 ? 0 : s.c % (s.n0 + 1) }));
    fc.assert(fc.property(fc.array(stratum, { maxLength: 12 }), (strata) => {
      const d = withinGroupDifference(strata);
      if (d.estimate === null) return d.groups === 0;
      return d.low! >= -1 && d.high! <= 1 && d.low! <= d.estimate + 1e-12 && d.estimate <= d.high! + 1e-12;
    }));
  });
});
