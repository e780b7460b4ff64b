import { describe, expect, it } from "vitest";
import { judgeAgreement } from "./agreement";

describe("judgeAgreement", () => {
  it("alpha of the judge against the people's mean, by hand", () => {
    // pairs (judge, human mean): (1, 0.5), (0, 0), (-1, -0.5); n = 6 values
    // D_o = (1/6) * sum_u 2 d_u^2 = (1/6) * (0.5 + 0 + 0.5) = 1/6
    // D_e = sum_{i != j} (v_i - v_j)^2 / (n (n - 1)) = 2 * 6 * 2.5 / 30 = 1 (sum v = 0, sum v^2 = 2.5)
    // alpha = 1 - (1/6) / 1 = 5/6; mean signed difference = (0.5 + 0 - 0.5) / 3 = 0
    const a = judgeAgreement([{ judge: 1, humans: [1, 0] }, { judge: 0, humans: [0] }, { judge: -1, humans: [-0.5] }, { judge: 1, humans: [] }]);
    expect(a.units).toBe(3);
    expect(a.alpha).toBeCloseTo(5 / 6, 12);
    expect(a.mean_signed_difference).toBeCloseTo(0, 12);
    expect(a.points).toEqual([{ judge: 1, human_mean: 0.5 }, { judge: 0, human_mean: 0 }, { judge: -1, human_mean: -0.5 }]);
  });
  it("a judge that always says more than people has a positive signed difference; fewer than 2 units gives null alpha", () => {
    expect(judgeAgreement([{ judge: 1, humans: [0.5] }, { judge: 0.5, humans: [0] }]).mean_signed_difference).toBeCloseTo(0.5, 12);
    expect(judgeAgreement([{ judge: 1, humans: [0.5] }]).alpha).toBeNull();
  });
});
