/** Typed fixtures for the credit tests. Data only: expectations live in the tests. */
import type { TraceSpec } from "../graph/fixtures";
import type { WeightPreset } from "../rewards/presets";
import { FAMILIES } from "../trace/types";

/** Seed 000's worked example: a failed run, decision -> spawn -> sub-agent return -> aggregate. */
export const SEED_CHAIN: TraceSpec = {
  events: [
    { id: "decide", t: 0, type: "orchestrator_decision", agent: "lead", decision: "spawn" },
    { id: "spawn", t: 1, type: "spawn", agent: "lead", to: "sub" },
    { id: "return", t: 2, type: "return", agent: "sub" },
    { id: "aggregate", t: 3, type: "aggregate", agent: "lead" },
  ],
  edges: [["decide", "spawn", "spawn"], ["spawn", "return"], ["return", "aggregate", "return"]],
  rewards: { task_success: -1 },
};

/**
 * Orchestration reach. Hops to the aggregate A: M 1, T 2, D1 2, S 3, D0 4, D2 4.
 *
 *   D0 -> S -> T -> M -> A      D2 -> S      D1 -> M
 */
export const ORCH_REACH: TraceSpec = {
  events: [
    { id: "D0", t: 0, type: "orchestrator_decision", agent: "orch", decision: "spawn" },
    { id: "D2", t: 0.5, type: "orchestrator_decision", agent: "orch", decision: "delegate" },
    { id: "S", t: 1, type: "spawn", agent: "orch", to: "W" },
    { id: "T", t: 2, type: "tool_call", agent: "W" },
    { id: "D1", t: 2.5, type: "orchestrator_decision", agent: "orch", decision: "communicate" },
    { id: "M", t: 3, type: "message", agent: "W" },
    { id: "A", t: 4, type: "aggregate", agent: "orch", rewards: { orchestration: 0.8 } },
  ],
  edges: [["D0", "S"], ["D2", "S"], ["S", "T"], ["T", "M"], ["D1", "M"], ["M", "A"]],
};

/** One decision spawning two workers whose results are aggregated; orchestration channel 0.6. */
export const TWO_SPAWNS: TraceSpec = {
  events: [
    { id: "D", t: 0, type: "orchestrator_decision", agent: "orch", decision: "spawn" },
    { id: "S1", t: 1, type: "spawn", agent: "orch", to: "A" },
    { id: "S2", t: 1, type: "spawn", agent: "orch", to: "B" },
    { id: "G", t: 2, type: "aggregate", agent: "orch" },
  ],
  edges: [["D", "S1"], ["D", "S2"], ["S1", "G"], ["S2", "G"]],
  rewards: { orchestration: 0.6 },
};

/** Continue decisions of two agents around two stop decisions. */
export const STOPS: TraceSpec = {
  events: [
    { id: "c0", t: 0, type: "orchestrator_decision", agent: "orch", decision: "continue" },
    { id: "c1", t: 1, type: "orchestrator_decision", agent: "orch", decision: "continue" },
    { id: "cx", t: 2, type: "orchestrator_decision", agent: "other", decision: "continue" },
    { id: "st", t: 3, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "complete", rewards: { stop_decision: 0.6 } },
    { id: "st2", t: 3.5, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "complete", rewards: { stop_decision: 0.2 } },
    { id: "c2", t: 4, type: "orchestrator_decision", agent: "orch", decision: "continue" },
    { id: "g", t: 5, type: "aggregate", agent: "orch" },
  ],
  edges: [["c0", "c1"], ["c1", "st"], ["cx", "st"], ["st", "st2"], ["st2", "c2"], ["c2", "g"]],
};

/** Weights: task_success only, so that R_total = R_task_success. */
export const SUCCESS_ONLY: WeightPreset = {
  name: "success_only",
  weights: { ...(Object.fromEntries(FAMILIES.map((f) => [f, 0])) as Record<(typeof FAMILIES)[number], number>), task_success: 1 },
  token_budget: 100_000,
};

/**
 * A rollout of group "g1": decision (role lead, "plan") -> aggregate (role
 * lead, "final"), task_success = `r`; `extra` adds a tool call after the aggregate.
 */
export function rollout(traceId: string, r: number, extra = false, groupId = "g1"): TraceSpec {
  return {
    trace_id: traceId,
    group_id: groupId,
    events: [
      { id: "d", t: 0, type: "orchestrator_decision", agent: "orch", role: "lead", content_ref: "plan" },
      { id: "g", t: 1, type: "aggregate", agent: "orch", role: "lead", content_ref: "final" },
      ...(extra ? [{ id: "x", t: 2, type: "tool_call" as const, agent: "A", tool: "calc" }] : []),
    ],
    edges: extra ? [["d", "g"], ["g", "x"]] : [["d", "g"]],
    rewards: { task_success: r },
  };
}
