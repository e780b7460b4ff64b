import { describe, expect, it } from "vitest";
import { mean, meanMedian, median } from "./summary";

describe("mean and median", () => {
  it("compute the usual values", () => {
    expect(mean([3, 1, 2])).toBe(2);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5); // (2 + 3) / 2
    expect(median([-1, 10])).toBe(4.5);
  });

  it("are null for no values", () => {
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
  });

  it("skip nulls: gaps, never zeros", () => {
    expect(meanMedian([null, 1, null, 4, 10])).toEqual({ mean: 5, median: 4 });
    expect(meanMedian([null])).toEqual({ mean: null, median: null });
  });
});
