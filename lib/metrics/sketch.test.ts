import { describe, expect, it } from "vitest";
import { errorBound, GAMMA, histogramValue, median, orderStatistic, percentileCont, representative } from "./sketch";

describe("quantiles from fine bins (hand-computed)", () => {
  const range = { min: 1, max: 3 };
  // the values 1, 1, 3 of a count metric
  const bins = [
    { key: 1, n: 2 },
    { key: 3, n: 1 },
  ];
  it("order statistics walk the bins in key order", () => {
    expect([0, 1, 2, 3].map((k) => orderStatistic("count", bins, k, range))).toEqual([1, 1, 3, null]);
  });
  it("percentile_cont interpolates between ranks as PostgreSQL does", () => {
    expect(percentileCont("count", bins, 3, 0.5, range)).toBe(1);
    // position 0.98 * 2 = 1.96: 1 + 0.96 * (3 - 1)
    expect(percentileCont("count", bins, 3, 0.98, range)).toBeCloseTo(2.92, 12);
    expect(percentileCont("count", [], 0, 0.5, range)).toBeNull();
  });
  it("the median is the middle value or the mean of the two middle ones", () => {
    expect(median("count", bins, 3, range)).toBe(1);
    expect(median("count", [{ key: 1, n: 1 }, { key: 3, n: 1 }], 2, range)).toBe(2);
  });
  it("a unit bin stands for its middle in quantiles and its lower edge in histograms, within the exact range", () => {
    expect(representative("unit", 0.3, { min: 0, max: 1 })).toBeCloseTo(0.3005, 12);
    expect(representative("unit", 0.3, { min: 0.3, max: 0.3 })).toBe(0.3);
    expect(histogramValue("unit", 0.3, { min: 0, max: 1 })).toBe(0.3);
    // a logarithmic bin's key below the exact minimum is clamped to it
    expect(histogramValue("real", 0.995, { min: 1, max: 5 })).toBe(1);
  });
  it("the bounds: exact for counts, w/2 for unit values, α|x| for the rest", () => {
    expect(errorBound("count", 7)).toBe(0);
    expect(errorBound("unit", 0.4)).toBe(0.0005);
    expect(errorBound("real", -200)).toBeCloseTo(1, 12);
    // γ = 1.005 / 0.995
    expect(GAMMA).toBeCloseTo(1.0100502512562815, 15);
  });
});
