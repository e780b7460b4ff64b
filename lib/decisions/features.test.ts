import { describe, expect, it } from "vitest";
import { traceBuckets } from "./buckets";
import { decisionFeatures, policyVersion, UNNAMED_TARGET } from "./features";
import { orch, rollout } from "./fixtures";

describe("decisionFeatures", () => {
  // decide(delegate) -> spawn w1 (coder) -> w1 works -> decide(spawn) -> spawn w2 (tester), spawn w1 again;
  // messages: 3 from 3 agents; aggregate with inputs from w1 and w2 and the decision; stop
  const trace = rollout("t", true, [
    { type: "orchestrator_decision", ...orch, decision: "delegate" }, // e1
    { type: "spawn", ...orch, to: "w1" }, // e2
    { type: "message", agent: "w1", role: "coder" }, // e3
    { type: "spawn", ...orch, to: "w2" }, // e4
    { type: "message", agent: "w2", role: "tester" }, // e5
    { type: "message", ...orch }, // e6
    { type: "spawn", ...orch, to: "w1" }, // e7
    { type: "aggregate", ...orch }, // e8
    { type: "orchestrator_decision", ...orch, decision: "stop", reason: "complete" }, // e9
  ], {
    edges: [
      { src: "e1", dst: "e2", type: "causal" },
      { src: "e2", dst: "e3", type: "spawn" },
      { src: "e1", dst: "e4", type: "spawn" },
      { src: "e4", dst: "e5", type: "spawn" },
      { src: "e3", dst: "e8", type: "aggregate" },
      { src: "e5", dst: "e8", type: "aggregate" },
      { src: "e6", dst: "e8", type: "causal" },
      { src: "e7", dst: "e8", type: "temporal" },
      { src: "e8", dst: "e9", type: "causal" },
    ],
    policy: 1840,
  });

  it("counts what the trace decided, by hand", () => {
    const f = decisionFeatures(trace);
    expect(f).toEqual({
      spawn_taken: true,
      agents_spawned: 2, // w1 twice, w2
      delegate_taken: true,
      // the delegate decision names nobody: its first causal successor naming someone is spawn e2 -> w1, a coder
      delegate_roles: ["coder"],
      communicate_taken: true,
      messages: 3,
      messages_per_agent: 1, // 3 messages, 3 agents
      aggregate_taken: true,
      aggregate_fan_in: 3, // e3, e5, e6 (the temporal edge from e7 is not causal)
      stop_taken: true,
      policy_version: "1840",
    });
    expect(traceBuckets(f)).toEqual({ agents_spawned: "2", delegate_roles: ["coder"], messages_per_agent: "(0, 1]", aggregate_fan_in: "3" });
  });

  it("a trace of one continue decision takes no sub-decision", () => {
    const f = decisionFeatures(rollout("t", null, [{ type: "orchestrator_decision", ...orch, decision: "continue" }, { type: "tool_call", ...orch, tool: "sql" }]));
    expect(f).toMatchObject({ spawn_taken: false, agents_spawned: 0, delegate_taken: false, delegate_roles: [], communicate_taken: false, messages_per_agent: 0, aggregate_taken: false, aggregate_fan_in: null, stop_taken: false, policy_version: null });
    expect(traceBuckets(f)).toEqual({ agents_spawned: "0", delegate_roles: ["(no delegation)"], messages_per_agent: "0", aggregate_fan_in: "none" });
  });

  it("a decision value alone counts as taken; an unnamed delegation is shown as such", () => {
    const f = decisionFeatures(rollout("t", null, ["spawn", "delegate", "communicate", "aggregate"].map((decision) => ({ type: "orchestrator_decision" as const, ...orch, decision }))));
    expect(f).toMatchObject({ spawn_taken: true, agents_spawned: 0, delegate_taken: true, delegate_roles: [UNNAMED_TARGET], communicate_taken: true, messages: 0, aggregate_taken: true, aggregate_fan_in: null });
  });

  it("reads policy_version from object metadata only", () => {
    expect(policyVersion({ policy_version: "ckpt-3" })).toBe("ckpt-3");
    expect(policyVersion({ policy_version: 12.5 })).toBe("12.5");
    expect(policyVersion({ policy_version: true })).toBeNull();
    expect(policyVersion(["x"])).toBeNull();
    expect(policyVersion(null)).toBeNull();
  });
});
