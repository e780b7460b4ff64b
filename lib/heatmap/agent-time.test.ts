import { describe, expect, it } from "vitest";
import { buildAgentTimeHeatmap } from "./agent-time";
import { symmetricDomain } from "./scale";
import { credited, exampleCredited, loadExampleTrace, values } from "./fixtures";

/*
 * The paper's example: e1-e8 at t = 0..7; agents in order of first action:
 * orchestrator (e1 e2 e3 e8), planner_1 (e4), executor_1 (e5 e7),
 * browser.search (e6). 4 buckets of 1.75 s: e1 e2 | e3 e4 | e5 e6 | e7 e8.
 */
describe("agent x time heatmap", () => {
  it("sums C(v) per agent and bucket, uniform: R_total / N = 2.405 / 8 per event", () => {
    const m = buildAgentTimeHeatmap(exampleCredited({ method: "uniform" }), 4);
    const u = 2.405 / 8;
    expect(m.rows.map((r) => r.key)).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
    expect(m.columns.map((c) => c.label)).toEqual(["0", "1.75", "3.5", "5.25"]);
    expect(m.columns[3]!.detail).toBe("t in [5.25, 7] s");
    const v = values(m);
    expect(v[0]![0]).toBeCloseTo(2 * u, 12);
    expect(v).toEqual([
      [v[0]![0], u, null, u],
      [null, u, null, null],
      [null, null, u, u],
      [null, null, u, null],
    ]);
    expect(m.cells[0]![0]!.refs).toEqual([{ trace_id: "demo-trace-001", event_ids: ["e1", "e2"] }]);
    expect(m.cells[0]![0]!.n).toBe(2);
    expect(m.cells[1]![0]).toEqual({ value: null, n: 0, refs: [] });
    // the largest cell (2u = 0.60125) rounded up to a round legend
    expect(m.domain[1]).toBe(1);
    expect(m.domain[0]).toBe(-m.domain[1]);
  });

  it("sums CCP credit: e.g. orchestrator bucket 0 = C(e1) + C(e2)", () => {
    // C(e1) = 0.7^6 (task) + 0.1 (orchestration: e2, e3 one hop back, 0.1 x 0.5 each) - 0.015 (cost 0.12 / 8)
    // C(e2) = 0.7^5 + 0.1 (its own orchestration share; e8 is 5 hops away) + 0.0625 (parallelism 0.125 / 2 spawns) - 0.015
    const m = buildAgentTimeHeatmap(exampleCredited(), 4);
    const c1 = 0.7 ** 6 + 0.1 - 0.015;
    const c2 = 0.7 ** 5 + 0.1 + 0.0625 - 0.015;
    const v = values(m);
    expect(v[0]![0]).toBeCloseTo(c1 + c2, 12);
    expect(v[1]![1]).toBeCloseTo(0.7 ** 4 + 1 - 0.015, 12); // e4, the message: communication 1
    expect(v[3]![2]).toBeCloseTo(0.7 ** 2 - 0.015, 12); // e6
    expect(m.domain).toEqual(symmetricDomain([v[1]![1] as number]));
  });

  it("adapts to the bucket count and keeps gaps for empty cells", () => {
    const one = buildAgentTimeHeatmap(exampleCredited({ method: "uniform" }), 1);
    expect(one.columns).toHaveLength(1);
    expect(values(one).map((r) => r[0])).toEqual([4, 1, 2, 1].map((n) => expect.closeTo((n * 2.405) / 8, 12) as unknown as number));
    const eight = buildAgentTimeHeatmap(exampleCredited({ method: "uniform" }), 8);
    expect(eight.columns).toHaveLength(8);
    expect(values(eight).flat().filter((x) => x !== null)).toHaveLength(8); // one event per bucket
  });

  it("says steps, not seconds, for a trace on the step clock (Who&When, tau-bench)", () => {
    const seconds = buildAgentTimeHeatmap(exampleCredited({ method: "uniform" }), 4);
    expect(seconds.column_label).toBe("event start time (s), 4 buckets");
    const example = loadExampleTrace();
    const steps = buildAgentTimeHeatmap(credited({ ...example, metadata: { ...(example.metadata as Record<string, unknown>), clock: "step_index" } }, { method: "uniform" }), 4);
    expect(steps.column_label).toBe("event start step, 4 buckets");
    expect(steps.columns[3]!.detail).toBe("t in [5.25, 7] (steps)");
    expect(values(steps)).toEqual(values(seconds));
  });
});
