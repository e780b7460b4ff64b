/** Typed fixtures for reward resolution tests. */
import type { TraceSpec } from "../graph/fixtures";

/**
 * Four tool calls: one succeeds, one fails twice, one fails once and
 * succeeds once, one has no result at all.
 */
export const TOOLS: TraceSpec = {
  events: [
    { id: "t1", t: 0, type: "tool_call", agent: "A", tool: "search" },
    { id: "r1", t: 1, type: "tool_result", agent: "search" },
    { id: "t2", t: 2, type: "tool_call", agent: "A", tool: "search" },
    { id: "r2", t: 3, type: "tool_result", agent: "search", status: "error" },
    { id: "r3", t: 3, type: "tool_result", agent: "search", status: "error" },
    { id: "t3", t: 4, type: "tool_call", agent: "A", tool: "read" },
    { id: "r4", t: 5, type: "tool_result", agent: "read", status: "error" },
    { id: "r5", t: 5, type: "tool_result", agent: "read", status: "ok" },
    { id: "t4", t: 6, type: "tool_call", agent: "A", tool: "read" },
    { id: "m", t: 7, type: "message", agent: "A" },
    { id: "ag", t: 8, type: "aggregate", agent: "orch" },
  ],
  edges: [
    ["t1", "r1", "tool_dependency"],
    ["t2", "r2", "tool_dependency"],
    ["t2", "r3", "tool_dependency"],
    ["t3", "r4", "tool_dependency"],
    ["t3", "r5", "tool_dependency"],
    ["t4", "m"],
    ["m", "ag"],
  ],
};

/** Event tokens 10, 30, 0, 60 (sum 100); the trace reports 250000 tokens in costs. */
export const TOKENS: TraceSpec = {
  events: [
    { id: "k1", t: 0, type: "orchestrator_decision", agent: "orch", tokens: 10 },
    { id: "k2", t: 1, type: "tool_call", agent: "A", tokens: 30 },
    { id: "k3", t: 2, type: "tool_result", agent: "tool" },
    { id: "k4", t: 3, type: "aggregate", agent: "orch", tokens: 60 },
  ],
  edges: [["k1", "k2"], ["k2", "k3"], ["k3", "k4"]],
  tokens: 250_000,
};

/** Three messages (one with its own reward), a tool call and the aggregate they all feed. */
export const MESSAGES: TraceSpec = {
  events: [
    { id: "m1", t: 0, type: "message", agent: "A", rewards: { step_quality: -1 } },
    { id: "m2", t: 1, type: "message", agent: "B", rewards: { step_quality: -0.4 } },
    { id: "m3", t: 2, type: "message", agent: "C" },
    { id: "tc", t: 3, type: "tool_call", agent: "C" },
    { id: "ag", t: 4, type: "aggregate", agent: "orch" },
  ],
  edges: [["m1", "ag"], ["m2", "ag"], ["m3", "ag"], ["tc", "ag"]],
  rewards: { process: 0.9 },
};

/** Two spawns, busy 1 over a makespan of 10: speedup 0.1. */
export const SLOW: TraceSpec = {
  events: [
    { id: "s1", t: 0, t_end: 1, type: "spawn", agent: "orch", to: "A" },
    { id: "s2", t: 10, type: "spawn", agent: "orch", to: "B" },
  ],
};
