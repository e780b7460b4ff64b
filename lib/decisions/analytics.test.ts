import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../stats/wilson";
import { decisionReport, tallyRows, type DecisionRow } from "./analytics";

const none = { spawn: false, delegate: false, communicate: false, aggregate: false, stop: false };
const row = (over: Omit<Partial<DecisionRow>, "taken"> & { taken?: Partial<DecisionRow["taken"]> }): DecisionRow => ({
  group_id: "g1", e1: null, r_total: 0, policy_version: null, stop_reason: null, verdict: null,
  buckets: { agents_spawned: "0", delegate_roles: ["(no delegation)"], messages_per_agent: "0", aggregate_fan_in: "none" },
  ...over,
  taken: { ...none, ...over.taken },
});

describe("decision analytics", () => {
  // group g1: two spawning rollouts (1 success), two without spawning (0 successes); g2: one spawning success, one without that succeeds;
  // a lone trace without group (spawns, fails) and one with E1 null
  const two = { agents_spawned: "2", delegate_roles: ["coder", "tester"], messages_per_agent: "(1, 2]", aggregate_fan_in: "2" };
  const rows = [
    row({ e1: 1, r_total: 2, taken: { spawn: true, delegate: true, stop: true }, buckets: two, stop_reason: "complete", verdict: "ok", policy_version: "ckpt-10" }),
    row({ e1: 0, r_total: -1, taken: { spawn: true }, buckets: { ...two, delegate_roles: ["coder"] }, verdict: "late", policy_version: "ckpt-10" }),
    row({ e1: 0, r_total: -2, policy_version: "ckpt-2" }),
    row({ e1: 0, r_total: -2, policy_version: "ckpt-2" }),
    row({ group_id: "g2", e1: 1, r_total: 1, taken: { spawn: true }, policy_version: "ckpt-2" }),
    row({ group_id: "g2", e1: 1, r_total: 1 }),
    row({ group_id: null, e1: 0, r_total: -1, taken: { spawn: true } }),
    row({ group_id: null, e1: null, r_total: 0.5 }),
  ];
  const report = decisionReport(tallyRows(rows));
  const spawn = report.decisions.find((d) => d.key === "spawn")!;

  it("splits each decision into taken and not taken: Wilson interval and mean R_total", () => {
    expect(report.traces).toBe(8);
    const w = wilsonInterval(2, 4)!;
    expect(spawn.taken).toEqual({ traces: 4, e1: { rate: 0.5, low: w.low, high: w.high, n: 4 }, mean_r_total: (2 - 1 + 1 - 1) / 4 });
    const v = wilsonInterval(1, 3)!;
    expect(spawn.not_taken).toEqual({ traces: 4, e1: { rate: 1 / 3, low: v.low, high: v.high, n: 3 }, mean_r_total: (-2 - 2 + 1 + 0.5) / 4 });
    expect(report.caveat).toMatch(/^Observational/);
  });

  it("buckets: one row per bucket, a trace in each delegate role it chose", () => {
    const delegate = report.decisions.find((d) => d.key === "delegate")!;
    expect(delegate.buckets[0]!.rows.map((r) => [r.bucket, r.traces, r.e1.n, r.e1.rate])).toEqual([["(no delegation)", 6, 5, 0.4], ["coder", 2, 2, 0.5], ["tester", 1, 1, 1]]);
    expect(spawn.buckets[0]!.rows.map((r) => [r.bucket, r.traces])).toEqual([["0", 6], ["2", 2]]);
    const stop = report.decisions.find((d) => d.key === "stop")!;
    expect(stop.buckets.map((b) => b.by)).toEqual(["stop_reason", "verdict"]);
    expect(stop.buckets[1]!.rows.map((r) => [r.bucket, r.traces])).toEqual([["(not computed)", 6], ["late", 1], ["ok", 1]]);
  });

  it("within-group difference pools only groups with both arms", () => {
    // g1: with 1/2, without 0/2 -> (1*2 - 0*2)/4 = 0.5, weight 1; g2: with 1/1, without 1/1 -> 0, weight 0.5; RD = 0.5 / 1.5
    // variance: g1 (1*1*8 + 0)/(2*2*16) = 1/8; g2 0; Var = (1/8) / 1.5^2
    expect(spawn.within_group.estimate).toBeCloseTo(1 / 3, 12);
    expect(spawn.within_group.low).toBeCloseTo(1 / 3 - 1.959963984540054 * Math.sqrt(1 / 8) / 1.5, 12);
    expect(spawn.within_group).toMatchObject({ groups: 2, with: 3, without: 3 });
  });

  it("by checkpoint, in version order (numbers by value), null last", () => {
    expect(report.checkpoints.map((c) => [c.policy_version, c.traces, c.e1.n, c.taken.spawn])).toEqual([["ckpt-2", 3, 3, 1], ["ckpt-10", 2, 2, 2], [null, 3, 2, 1]]);
  });

  it("an empty filter gives nulls, never NaN", () => {
    const empty = decisionReport(tallyRows([]));
    expect(empty.overall).toEqual({ traces: 0, e1: { rate: null, low: null, high: null, n: 0 }, mean_r_total: null });
    expect(JSON.stringify(empty)).not.toMatch(/NaN/);
  });
});
