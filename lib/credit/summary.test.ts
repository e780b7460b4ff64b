import { describe, expect, it } from "vitest";
import { loadExampleTrace } from "../metrics/fixtures";
import { ROLE } from "../metrics/roles";
import type { Trace, TraceEdge, TraceEvent } from "../trace/types";
import { chainTrace } from "../graph/fixtures";
import { computeTraceSummary } from "./summary";
import { computeCredit, prepareTrace, creditColumns } from "./index";
import { BUILTIN_PRESETS } from "../rewards/presets";

describe("computeTraceSummary", () => {
  it("gives R_total and ccp credit under every built-in preset", () => {
    const s = computeTraceSummary(loadExampleTrace());
    // R: task 1, orch 0.3, par 0.125, comm 1, tool 0.1, cost 0.12 (step_quality, stop absent)
    expect(s.presets.uniform!.r_total).toBeCloseTo(2.405, 9);
    expect(s.presets.code_generation!.r_total).toBeCloseTo(1 + 0.3 * 0.1 - 0.1 * 0.12, 9); // 1.018
    expect(s.presets.multi_source_research!.r_total).toBeCloseTo(1 + 0.4 * 0.3 + 0.3 * 0.125 + 0.2 * 1, 9); // 1.3575
    expect(s.presets.customer_support!.r_total).toBeCloseTo(1 - 0.2 * 0.12, 9); // 0.976
    // code_generation at e8: task 1 - 0.1 x 0.015; at e5: 0.343 + 0.3 x 0.1 - 0.1 x 0.015
    expect(s.presets.code_generation!.credit[7]).toBeCloseTo(0.9985, 9);
    expect(s.presets.code_generation!.credit[4]).toBeCloseTo(0.3715, 9);
    expect(s.metrics.e1).toBe(1);
    expect([...s.rank]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(s.terminal).toBe(7);
    expect(s.stop).toBe(-1);
    expect(s.roles[7]! & ROLE.terminal).toBe(ROLE.terminal);
    expect(s.families.cost).toBeCloseTo(0.12, 9);
  });

  it("agrees with the credit API", () => {
    const trace = loadExampleTrace();
    const api = computeCredit(trace, { preset: BUILTIN_PRESETS.customer_support });
    const s = computeTraceSummary(trace);
    api.events.forEach((e, k) => expect(s.presets.customer_support!.credit[k]).toBeCloseTo(e.total, 12));
  });
});

/** A wide, deep synthetic trace: waves of spawned workers with tool calls, messages and aggregates. */
function bigTrace(n: number): Trace {
  const events: TraceEvent[] = [];
  const edges: TraceEdge[] = [];
  let prev = "start";
  events.push({ id: prev, t: 0, type: "orchestrator_decision", agent: "orch", decision: "spawn" });
  for (let wave = 0; events.length < n - 8; wave++) {
    const t = wave * 10;
    const agg = `agg${wave}`;
    for (let w = 0; w < 4; w++) {
      const [s, c, r, m] = [`s${wave}.${w}`, `c${wave}.${w}`, `r${wave}.${w}`, `m${wave}.${w}`];
      const agent = `w${wave}.${w}`;
      events.push(
        { id: s, t: t + 1, type: "spawn", agent: "orch", to: agent, tokens: 5 },
        { id: c, t: t + 2, t_end: t + 4, type: "tool_call", agent, tool: "search", tokens: 50 },
        { id: r, t: t + 4, type: "tool_result", agent: "search", trusted: w !== 0, status: w === 1 ? "error" : "ok" },
        { id: m, t: t + 5, t_end: t + 6, type: "message", agent, content: `result ${w}`, tokens: 20 },
      );
      edges.push({ src: prev, dst: s, type: "spawn" }, { src: s, dst: c, type: "causal" }, { src: c, dst: r, type: "tool_dependency" }, { src: r, dst: m, type: "causal" }, { src: m, dst: agg, type: "aggregate" });
    }
    events.push({ id: agg, t: t + 7, type: "aggregate", agent: "orch", tokens: 10 });
    const next = `d${wave}`;
    events.push({ id: next, t: t + 8, type: "orchestrator_decision", agent: "orch", decision: "continue" });
    edges.push({ src: agg, dst: next, type: "causal" });
    prev = next;
  }
  events.push({ id: "stop", t: 1e9, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "complete" });
  edges.push({ src: prev, dst: "stop", type: "causal" });
  return { trace_id: "big", task_id: "big", events, edges, rewards: { team: 1, orchestration: 0.5 }, costs: { tokens: 1e6, wall_clock_s: 1 } };
}

describe("scale", () => {
  it("summarises 100k events quickly, and a 100k chain without stack overflow", () => {
    const trace = bigTrace(100_000);
    const started = performance.now();
    const s = computeTraceSummary(trace);
    const elapsed = performance.now() - started;
    expect(s.metrics.e2.critical_steps).toBeGreaterThan(1000);
    expect(Number.isFinite(s.presets.uniform!.r_total)).toBe(true);
    // the budget is 1 s on one core; this bound only catches gross regressions on a busy CI machine
    expect(elapsed).toBeLessThan(5000);

    const chain = prepareTrace(chainTrace(100_000));
    const cols = creditColumns(chain, { method: "ccp" });
    expect(cols.byFamily!.task_success[0]).toBe(0); // R_ts absent: no task credit anywhere
    expect(chain.metrics.e2.critical_steps).toBe(100_000);
  });
});
