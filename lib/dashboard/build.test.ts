import { describe, expect, it } from "vitest";
import { binEdges } from "./bins";
import { buildDashboard, buildHistogram, dayTrend, policyTrend, type DashboardRaw, type TrendRow } from "./build";
import { DASHBOARD_METRICS } from "./metrics";

const speedup = DASHBOARD_METRICS.find((m) => m.key === "speedup")!;
const row = (key: string | null, traces: number, e1_n: number, e1_successes: number, mean: number | null = null): TrendRow => ({ key, traces, e1_n, e1_successes, means: { speedup: mean } });

describe("buildHistogram", () => {
  it("places SQL's 1-based bucket counts in their bins, empty bins 0, nulls in their own bar", () => {
    const bins = binEdges("real", { min: 1, max: 2.6 }); // 8 bins of 0.2
    const h = buildHistogram(speedup, bins, { min: 1, max: 2.6, values: 5, nulls: 2 }, [
      { metric: "speedup", bin: 1, n: 3 },
      { metric: "speedup", bin: 8, n: 2 },
      { metric: "other", bin: 2, n: 9 },
    ]);
    expect(h.bars.map((b) => b.count)).toEqual([3, 0, 0, 0, 0, 0, 0, 2, 2]);
    expect(h.bars.at(-1)).toEqual({ key: "speedup:null", label: "null", count: 2, null: true });
    expect(h.bars[0]!.key).toBe("speedup:0");
    expect(h.y_max).toBe(3);
    expect({ values: h.values, nulls: h.nulls }).toEqual({ values: 5, nulls: 2 });
  });

  it("shows only the null bar when no trace has a value", () => {
    const h = buildHistogram(speedup, binEdges("real", null), { min: null, max: null, values: 0, nulls: 4 }, []);
    expect(h.bars).toEqual([{ key: "speedup:null", label: "null", count: 4, null: true }]);
  });
});

describe("trends", () => {
  it("has a point per day from first to last, days without traces explicit and empty", () => {
    const t = dayTrend([row("2026-11-28", 10, 10, 8, 1.5), row("2026-11-30", 2, 0, 0)]);
    expect(t.points.map((p) => p.label)).toEqual(["2026-11-28", "2026-11-29", "2026-11-30"]);
    const [first, gap, last] = t.points;
    // Wilson 95% of 8 / 10 (docs/metrics.md): [0.4902, 0.9433]
    expect(first!.e1.rate).toBe(0.8);
    expect(first!.e1.low).toBeCloseTo(0.4902, 4);
    expect(first!.e1.high).toBeCloseTo(0.9433, 4);
    expect(first!.means.speedup).toBe(1.5);
    expect(gap).toMatchObject({ key: "day:2026-11-29", traces: 0, e1: { rate: null, low: null, high: null, n: 0 } });
    expect(gap!.means.speedup).toBeNull();
    expect(last!.e1.rate).toBeNull(); // traces, but none with E1
    expect(t.points.map((p) => p.joined)).toEqual([false, true, true]);
  });

  it("orders checkpoints as given and puts traces without policy_version last", () => {
    const t = policyTrend([row(null, 1, 1, 1), row("ckpt-100", 4, 4, 1), row("ckpt-200", 4, 4, 3)]);
    expect(t.points.map((p) => [p.key, p.label, p.e1.rate])).toEqual([
      ["policy:ckpt-100", "ckpt-100", 0.25],
      ["policy:ckpt-200", "ckpt-200", 0.75],
      ["policy:", "no policy_version", 1],
    ]);
    expect(t.points.map((p) => p.joined)).toEqual([false, true, false]); // no line into "no policy_version"
  });
});

describe("buildDashboard", () => {
  const raw: DashboardRaw = {
    scope: "group g",
    traces: 4,
    e1_n: 3,
    e1_successes: 2,
    stats: {},
    bins: {},
    counts: [],
    verdicts: [{ verdict: "ok", n: 2 }, { verdict: "premature", n: 1 }, { verdict: null, n: 1 }],
    days: [],
    policies: [],
  };

  it("gives E1 the Wilson interval of successes / non-null traces and bars for success, failure, unknown", () => {
    const d = buildDashboard(raw);
    expect(d.e1.rate).toBeCloseTo(2 / 3, 12);
    expect(d.e1.n).toBe(3);
    expect(d.e1.low).toBeCloseTo(0.2077, 4);
    expect(d.e1.high).toBeCloseTo(0.9385, 4);
    expect(d.e1.bars.map((b) => [b.key, b.count, b.null])).toEqual([["e1:1", 2, false], ["e1:0", 1, false], ["e1:null", 1, true]]);
  });

  it("counts every verdict (0 when none), and traces without one apart", () => {
    const d = buildDashboard(raw);
    expect(d.verdicts.bars.map((b) => [b.label, b.count])).toEqual([["premature", 1], ["late", 0], ["unknown", 0], ["ok", 2], ["none", 1]]);
    expect(d.verdicts.y_max).toBe(2);
  });

  it("draws a histogram for every E2-E4 value, all null when the database gave no range", () => {
    const d = buildDashboard(raw);
    expect(d.histograms.map((h) => h.metric)).toEqual(DASHBOARD_METRICS.map((m) => m.key));
    expect(d.histograms[0]!.bars).toEqual([{ key: "critical_steps:null", label: "null", count: 4, null: true }]);
  });

  it("has no E1 interval without traces", () => {
    const d = buildDashboard({ ...raw, traces: 0, e1_n: 0, e1_successes: 0, verdicts: [] });
    expect(d.e1).toMatchObject({ rate: null, low: null, high: null, n: 0 });
  });
});
