import { describe, expect, it } from "vitest";
import { formatBound, timeBuckets } from "./buckets";

describe("timeBuckets", () => {
  it("splits [min, max] into equal buckets, lower edge inclusive, the last closed", () => {
    const b = timeBuckets([0, 1, 2, 3, 4, 5, 6, 7], 4);
    expect(b.edges).toEqual([0, 1.75, 3.5, 5.25, 7]);
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((t) => b.indexOf(t))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
    // exactly on an edge: the upper bucket; the maximum stays in the last
    expect([1.75, 3.5, 5.25, 7].map((t) => b.indexOf(t))).toEqual([1, 2, 3, 3]);
  });

  it("keeps an event on an edge in its bucket despite rounding (0.3 / 0.1 is 2.9999999999999996)", () => {
    const b = timeBuckets([0, 0.3, 1], 10);
    expect(b.indexOf(0.3)).toBe(3);
  });

  it("starts at the earliest time, not at 0", () => {
    const b = timeBuckets([10, 12, 20], 2);
    expect(b.edges).toEqual([10, 15, 20]);
    expect([10, 12, 20].map((t) => b.indexOf(t))).toEqual([0, 0, 1]);
  });

  it("has one bucket when every event has the same time", () => {
    const b = timeBuckets([3, 3], 12);
    expect(b.count).toBe(1);
    expect(b.edges).toEqual([3, 3]);
    expect(b.indexOf(3)).toBe(0);
  });

  it("refuses bucket counts outside 1-200 and empty input", () => {
    expect(() => timeBuckets([0, 1], 0)).toThrow();
    expect(() => timeBuckets([0, 1], 201)).toThrow();
    expect(() => timeBuckets([0, 1], 2.5)).toThrow();
    expect(() => timeBuckets([], 3)).toThrow();
  });

  it("prints bounds short", () => {
    expect(formatBound(1.75)).toBe("1.75");
    expect(formatBound(2 / 3)).toBe("0.6667");
    expect(formatBound(1200)).toBe("1200");
  });
});
