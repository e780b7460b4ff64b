/** Typed fixtures for the hacking-diagnostics tests. Data only: expectations live in the tests. */
import type { TraceSpec } from "../graph/fixtures";

/**
 * A lead spawns A and B. A's tool result reaches the aggregate; B calls a
 * tool whose result nobody uses. No durations (speedup is null, so
 * parallelism_speedup comes from step_parallelism), no tokens (cost 0).
 *
 *   d -> s1 -> a1 -> a2 -> a3 -> g        d -> s2 -> b1 -> b2
 */
export const UNUSED_WORKER: TraceSpec = {
  events: [
    { id: "d", t: 0, type: "orchestrator_decision", agent: "lead", decision: "spawn" },
    { id: "s1", t: 1, type: "spawn", agent: "lead", to: "A" },
    { id: "s2", t: 1, type: "spawn", agent: "lead", to: "B" },
    { id: "a1", t: 2, type: "tool_call", agent: "A", tool: "search" },
    { id: "b1", t: 2, type: "tool_call", agent: "B", tool: "search" },
    { id: "a2", t: 3, type: "tool_result", agent: "A", tool: "search" },
    { id: "b2", t: 3, type: "tool_result", agent: "B", tool: "search" },
    { id: "a3", t: 4, type: "return", agent: "A" },
    { id: "g", t: 5, type: "aggregate", agent: "lead" },
  ],
  edges: [
    ["d", "s1", "spawn"], ["d", "s2", "spawn"], ["s1", "a1", "spawn"], ["s2", "b1", "spawn"],
    ["a1", "a2", "return"], ["b1", "b2", "return"], ["a2", "a3"], ["a3", "g", "aggregate"],
  ],
  rewards: { task_success: 1 },
};

/** The same run with B's result reaching the aggregate: everybody contributes. */
export const ALL_USED: TraceSpec = { ...UNUSED_WORKER, edges: [...UNUSED_WORKER.edges!, ["b2", "g", "aggregate"]] };

/** Three workers, one unused: a third of the spawned work wasted. */
export const ONE_OF_THREE_UNUSED: TraceSpec = {
  events: [
    ...UNUSED_WORKER.events,
    { id: "s3", t: 1, type: "spawn", agent: "lead", to: "C" },
    { id: "c1", t: 2, type: "return", agent: "C" },
  ],
  edges: [...UNUSED_WORKER.edges!, ["b2", "g", "aggregate"], ["s3", "c1", "spawn"], ["c1", "g", "aggregate"]],
  rewards: { task_success: 1 },
};

/** B calls a second tool nobody uses: 2 of 3 calls wasted. */
export const SPAMMED_TOOLS: TraceSpec = {
  events: [...UNUSED_WORKER.events, { id: "b3", t: 4, type: "tool_call", agent: "B", tool: "search" }],
  edges: [...UNUSED_WORKER.edges!, ["b2", "b3"]],
  rewards: { task_success: 1 },
};

/**
 * Messages to an aggregate: m2 repeats m1 modulo case and whitespace, m3
 * reaches nothing. Lengths in code points: 14, 15, 5.
 */
export const PADDED_TALK: TraceSpec = {
  events: [
    { id: "m1", t: 0, type: "message", agent: "A", content: "Use the index." },
    { id: "m2", t: 1, type: "message", agent: "B", content: "use the  INDEX." },
    { id: "m3", t: 2, type: "message", agent: "B", content: "Done." },
    { id: "g", t: 3, type: "aggregate", agent: "lead" },
  ],
  edges: [["m1", "g"], ["m2", "g"]],
};

/** The same talk with a new second message ("Add a test.", 11 code points). */
export const LEAN_TALK: TraceSpec = {
  ...PADDED_TALK,
  events: PADDED_TALK.events.map((e) => (e.id === "m2" ? { ...e, content: "Add a test." } : e)),
};
