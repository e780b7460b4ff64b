import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { binEdges, binRange, binIndex, niceStep, percentileOf } from "./bins";
import type { MetricKind } from "./metrics";

describe("binEdges", () => {
  it("gives ratios ten bins of 0.1 over [0, 1], whatever the range", () => {
    const b = binEdges("unit", { min: 0.25, max: 0.5 });
    expect(b.edges).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(b.labels[0]).toBe("0-0.1");
    expect(b.labels[9]).toBe("0.9-1");
  });

  it("gives small counts one bin per integer", () => {
    expect(binEdges("count", { min: 3, max: 7 })).toEqual({ edges: [3, 4, 5, 6, 7, 8], labels: ["3", "4", "5", "6", "7"] });
  });

  it("groups wide counts into nice integer widths", () => {
    // 0..99: 100 possible values / 20 = 5 per bin -> 20 bins 0-4, 5-9, ..., 95-99
    const b = binEdges("count", { min: 0, max: 99 });
    expect(b.edges).toHaveLength(21);
    expect(b.labels[0]).toBe("0-4");
    expect(b.labels[19]).toBe("95-99");
  });

  it("bins reals by a nice step covering [min, max]", () => {
    // (2.6 - 1) / 10 = 0.16 -> step 0.2 -> [1, 2.6]: 8 bins
    const b = binEdges("real", { min: 1, max: 2.6 });
    expect(b.edges).toEqual([1, 1.2, 1.4, 1.6, 1.8, 2, 2.2, 2.4, 2.6]);
    expect(b.labels[0]).toBe("1-1.2");
  });

  it("has one bin [v, v] for a single value, no bins without values, no/yes for booleans", () => {
    expect(binEdges("real", { min: 0, max: 0 })).toEqual({ edges: [0, 0], labels: ["0"] });
    expect(binEdges("real", null)).toEqual({ edges: [], labels: [] });
    expect(binEdges("boolean", { min: 0, max: 1 })).toEqual({ edges: [0, 1, 2], labels: ["no", "yes"] });
  });
});

describe("binEdges, the ranges kept", () => {
  it("gives each call its own arrays: changing one answer leaves the next as it was", () => {
    const first = binEdges("real", { min: 1, max: 2.6 });
    first.edges.push(99);
    first.labels[0] = "changed";
    expect(binEdges("real", { min: 1, max: 2.6 })).toEqual({ edges: [1, 1.2, 1.4, 1.6, 1.8, 2, 2.2, 2.4, 2.6], labels: ["1-1.2", "1.2-1.4", "1.4-1.6", "1.6-1.8", "1.8-2", "2-2.2", "2.2-2.4", "2.4-2.6"] });
    const unit = binEdges("unit", { min: 0.2, max: 0.3 });
    unit.edges[0] = -1;
    expect(binEdges("unit", { min: 0.5, max: 0.6 }).edges[0]).toBe(0);
  });

  it("keeps -0 apart from 0, and a kind apart from another on the same range", () => {
    expect(Object.is(binEdges("real", { min: -0, max: -0 }).edges[0], -0)).toBe(true);
    expect(Object.is(binEdges("real", { min: 0, max: 0 }).edges[0], 0)).toBe(true);
    expect(binEdges("count", { min: 0, max: 1 }).labels).toEqual(["0", "1"]);
    expect(binEdges("boolean", { min: 0, max: 1 }).labels).toEqual(["no", "yes"]);
  });

  it("answers a range asked again as it did the first time", () => {
    const kinds: MetricKind[] = ["unit", "count", "real", "boolean"];
    fc.assert(
      fc.property(fc.constantFrom(...kinds), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }), (kind, a, b) => {
        const range = { min: Math.min(a, b), max: Math.max(a, b) };
        expect(binEdges(kind, range)).toEqual(binEdges(kind, { ...range }));
      }),
    );
  });
});

describe("binIndex (the SQL width_bucket rule)", () => {
  it("puts lower edges in their bin and the top edge in the last bin", () => {
    const edges = [0, 0.5, 1];
    expect([0, 0.49, 0.5, 0.99, 1].map((v) => binIndex(edges, v))).toEqual([0, 0, 1, 1, 1]);
    expect(binIndex(edges, 1.01)).toBe(-1);
    expect(binIndex([2, 2], 2)).toBe(0);
  });

  it("finds nice steps", () => {
    expect([0.16, 0.3, 7, 12, 0.05].map(niceStep)).toEqual([0.2, 0.5, 10, 20, 0.05]);
  });
});

describe("binEdges near the float8 limit", () => {
  it("one bin from min to max, finite edges, instead of NaN or an endless array", () => {
    expect(binEdges("real", { min: -1.7e308, max: 1.7e308 })).toEqual({ edges: [-1.7e308, 1.7e308], labels: ["-1.7e+308…1.7e+308"] });
    expect(binEdges("count", { min: 0, max: 1.7e308 }).edges).toEqual([0, 1.7e308]);
  });
});

describe("binRange: one outlier never squashes a histogram", () => {
  it("clips to the 2nd-98th percentiles when the full range is over 4 times theirs", () => {
    // 99 makespans in [10, 20] and one of 10,000
    expect(binRange({ min: 10, max: 10_000 }, 10.2, 19.8)).toEqual({ range: { min: 10.2, max: 19.8 }, clipped: true });
    expect(binRange({ min: 10, max: 40 }, 10.2, 19.8)).toEqual({ range: { min: 10, max: 40 }, clipped: false });
    expect(binRange({ min: 3, max: 3 }, 3, 3)).toEqual({ range: { min: 3, max: 3 }, clipped: false });
    expect(binRange({ min: 0, max: 1 }, null, null).clipped).toBe(false);
  });
});

describe("binEdges for every finite range (subnormals included)", () => {
  const extreme = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
    fc.constantFrom(0, -0, 5e-324, -5e-324, 1e-323, 5e-323, 2.2250738585072014e-308, 1e-310, 1e15, -1e15),
    fc.integer({ min: 1, max: 1000 }).map((k) => k * 5e-324),
  );
  it("keeps 15-digit ranges to a handful of bins (fast-check found [999999999999031, 999999999999051] giving 26)", () => {
    const { edges } = binEdges("real", { min: 999999999999031, max: 999999999999051 });
    expect(edges.length).toBeLessThanOrEqual(26);
    expect(edges[0]!).toBeLessThanOrEqual(999999999999031);
    expect(edges.at(-1)!).toBeGreaterThanOrEqual(999999999999051);
  });

  it("gives finite, ascending edges around [min, max], at most 25 bins", () => {
    fc.assert(
      fc.property(extreme, extreme, fc.constantFrom<MetricKind>("count", "real", "unit", "boolean"), (a, b, kind) => {
        const [min, max] = a <= b ? [a, b] : [b, a];
        const { edges, labels } = binEdges(kind, { min, max });
        expect(edges.every(Number.isFinite)).toBe(true);
        for (let i = 1; i < edges.length; i++) expect(edges[i]!).toBeGreaterThanOrEqual(edges[i - 1]!);
        expect(edges.length).toBeLessThanOrEqual(26);
        expect(labels.length).toBe(Math.max(0, edges.length - 1));
        if (kind !== "boolean" && !(kind === "unit" && min >= 0 && max <= 1)) {
          expect(edges[0]!).toBeLessThanOrEqual(min);
          expect(edges.at(-1)!).toBeGreaterThanOrEqual(max);
        }
      }),
      { numRuns: 3000 },
    );
  });
  it("bins a range of a few subnormals (min 0, max 5e-323) into steps of the smallest double", () => {
    expect(niceStep(5e-324)).toBe(5e-324);
    expect(binEdges("real", { min: 0, max: 5e-323 }).edges).toEqual(Array.from({ length: 11 }, (_, i) => i * 5e-324));
  });
});

describe("percentileOf (PostgreSQL's percentile_cont over distinct values and their counts)", () => {
  it("interpolates between the two rows around p·(n − 1)", () => {
    // 1, 2, 3, 4: p = 0.5 → row 1.5, between 2 and 3
    expect(percentileOf([1, 2, 3, 4], [1, 1, 1, 1], 4, 0.5)).toBe(2.5);
    // 10, 10, 10, 20: p = 0.5 → rows 1 and 2, both 10; p = 0.98 → row 2.94, 10 + 0.94 · 10
    expect(percentileOf([10, 20], [3, 1], 4, 0.5)).toBe(10);
    expect(percentileOf([10, 20], [3, 1], 4, 0.98)).toBeCloseTo(19.4, 12);
    // one value: itself; none: null
    expect(percentileOf([7], [1], 1, 0.02)).toBe(7);
    expect(percentileOf([], [], 0, 0.5)).toBeNull();
  });

  it("equals the same rule over the values written out one by one", () => {
    const distinct = fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(distinct, fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 30, maxLength: 30 }), fc.double({ min: 0, max: 1, noNaN: true }), (values, counts, p) => {
        const vs = [...values].sort((a, b) => a - b);
        const ns = vs.map((_, k) => counts[k]!);
        const all = vs.flatMap((v, k) => Array.from({ length: ns[k]! }, () => v));
        const at = p * (all.length - 1);
        const [lo, hi] = [all[Math.floor(at)]!, all[Math.ceil(at)]!];
        const expected = Math.floor(at) === Math.ceil(at) ? lo : lo + (at - Math.floor(at)) * (hi - lo);
        expect(percentileOf(vs, ns, all.length, p)).toBe(expected);
      }),
    );
  });
});
