import { describe, expect, it } from "vitest";
import { krippendorffAlpha } from "./krippendorff";

describe("krippendorffAlpha (interval)", () => {
  it("matches a hand computation, skipping single-value units", () => {
    // pairable units [1,2], [3,3], [2,4] (n = 6 values); [5] is skipped.
    // D_o = (1/n) sum_u (1/(m_u - 1)) sum_{i != j} (v_i - v_j)^2 = (2 + 0 + 8) / 6 = 5/3
    // D_e = sum over ordered pairs of all 6 values / (n (n - 1)) = 66 / 30 = 2.2
    // alpha = 1 - (5/3) / 2.2 = 8/33
    expect(krippendorffAlpha([[1, 2], [3, 3], [2, 4], [5]])).toBeCloseTo(8 / 33, 9);
  });

  it("handles units of different sizes", () => {
    // [0.5, 1, 0.5]: 1.0 / 2 = 0.5; [-1, -0.5]: 0.5 / 1; [0, 0]: 0 -> D_o = 1/7
    // all 7 values: sum v^2 = 2.75, sum v = 0.5; ordered pairs 2 (7 x 2.75 - 0.25) = 38 -> D_e = 38/42
    // alpha = 1 - (1/7) / (38/42) = 16/19
    expect(krippendorffAlpha([[0.5, 1, 0.5], [-1, -0.5], [0, 0]])).toBeCloseTo(16 / 19, 9);
  });

  it("is 1 for perfect agreement across varied units", () => {
    expect(krippendorffAlpha([[1, 1], [-1, -1], [0.5, 0.5]])).toBe(1);
  });

  it("is null with fewer than 2 pairable units or no expected disagreement", () => {
    expect(krippendorffAlpha([[1, 0], [1]])).toBeNull();
    expect(krippendorffAlpha([])).toBeNull();
    expect(krippendorffAlpha([[0.1, 0.1], [0.1, 0.1, 0.1]])).toBeNull();
  });
});
