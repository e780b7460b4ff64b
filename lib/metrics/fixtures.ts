/**
 * Typed fixtures for the metrics tests, and a loader for the paper's
 * example trace (read from ../shared, never copied into the repo).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { TraceSpec } from "../graph/fixtures";
import type { Trace } from "../trace/types";
import { validateTrace } from "../trace/validate";

/**
 * A research run (array order = listed order; event order differs: b2, b3 come before a2).
 *
 *   d1 -> s1 -> a1 -> a2 -> g -> x          s3 (spawns C, who never acts)
 *   d1 -> s2 -> b1 -> b2 -> g               b1 -> b3 (a message nobody reads)
 *   d1 -> s3                                 a1 -> g
 */
export const RICH: TraceSpec = {
  events: [
    { id: "d1", t: 0, t_end: 1, type: "orchestrator_decision", agent: "orch", decision: "spawn", tokens: 10 },
    { id: "s1", t: 1, t_end: 1, type: "spawn", agent: "orch", to: "A", tokens: 5 },
    { id: "s2", t: 1, type: "spawn", agent: "orch", to: "B", tokens: 5 },
    { id: "s3", t: 1, type: "spawn", agent: "orch", to: "C" },
    { id: "a1", t: 2, t_end: 5, type: "tool_call", agent: "A", tool: "search", tokens: 100, trusted: false },
    { id: "b1", t: 2, t_end: 4, type: "tool_call", agent: "B", tool: "search", tokens: 50, status: "error" },
    { id: "a2", t: 5, t_end: 6, type: "return", agent: "A", tokens: 20 },
    { id: "b2", t: 4, t_end: 5, type: "message", agent: "B", content: "Hello  World", tokens: 10 },
    { id: "b3", t: 4, t_end: 4.5, type: "message", agent: "B", content: " hello\tworld ", tokens: 10 },
    { id: "g", t: 6, t_end: 7, type: "aggregate", agent: "orch", tokens: 30 },
    { id: "x", t: 8, type: "tool_call", agent: "A", tokens: 40 },
  ],
  edges: [
    ["d1", "s1", "spawn"],
    ["d1", "s2", "spawn"],
    ["d1", "s3", "spawn"],
    ["s1", "a1"],
    ["s2", "b1"],
    ["a1", "a2", "return"],
    ["b1", "b2"],
    ["b1", "b3"],
    ["a2", "g", "aggregate"],
    ["b2", "g", "aggregate"],
    ["a1", "g"],
    ["g", "x"],
  ],
  metrics: { task_success: 0 },
  tokens: 280,
};

/** A run with a continue decision, a stop decision and one event after it. */
export const STOPPED: TraceSpec = {
  events: [
    { id: "o1", t: 0, type: "orchestrator_decision", agent: "orch", decision: "spawn" },
    { id: "sp", t: 1, type: "spawn", agent: "orch", to: "W" },
    { id: "w1", t: 2, type: "tool_call", agent: "W", tokens: 10 },
    { id: "r1", t: 3, type: "return", agent: "W", tokens: 5 },
    { id: "c1", t: 4, type: "orchestrator_decision", agent: "orch", decision: "continue" },
    { id: "ag", t: 5, type: "aggregate", agent: "orch", tokens: 7 },
    { id: "st", t: 6, type: "orchestrator_decision", agent: "orch", decision: "stop", reason: "quality_met" },
    { id: "ex", t: 7, type: "message", agent: "W", tokens: 3 },
  ],
  edges: [["o1", "sp"], ["sp", "w1"], ["w1", "r1"], ["r1", "ag"], ["c1", "ag"], ["ag", "st"]],
  rewards: { team: 1 },
};

/**
 * Untrusted input stopped by a safety event; an untrusted human intervention.
 *
 *   u1 (untrusted) -> m1 -> sf (safety) -> m2 -> ag
 *   h1 (human, untrusted) -> m3 -> ag
 */
export const FIREWALL: TraceSpec = {
  events: [
    { id: "u1", t: 0, type: "tool_result", agent: "web", trusted: false },
    { id: "m1", t: 1, type: "message", agent: "A" },
    { id: "sf", t: 2, type: "safety_event", agent: "guard" },
    { id: "m2", t: 3, type: "message", agent: "A" },
    { id: "h1", t: 1, type: "human_intervention", agent: "human", trusted: false },
    { id: "m3", t: 2, type: "message", agent: "B" },
    { id: "ag", t: 4, type: "aggregate", agent: "orch" },
  ],
  edges: [["u1", "m1"], ["m1", "sf", "safety_flow"], ["sf", "m2"], ["m2", "ag"], ["h1", "m3"], ["m3", "ag"]],
};

/** One event, no duration, nothing spawned, no messages. */
export const SINGLE: TraceSpec = {
  events: [{ id: "only", t: 3, type: "tool_call", agent: "A" }],
};

const EXAMPLE_PATH = fileURLToPath(new URL("../../../shared/trace-schema/example_trace.json", import.meta.url));

/** The paper's example trace, imported through the real validator. */
export function loadExampleTrace(): Trace {
  const result = validateTrace(JSON.parse(readFileSync(EXAMPLE_PATH, "utf8")));
  if (!result.ok) throw new Error(`example trace rejected: ${JSON.stringify(result.problems)}`);
  return result.trace;
}
