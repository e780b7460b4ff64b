import fc from "fast-check";
import { DECISIONS, EDGE_TYPES, EVENT_TYPES, STOP_REASONS, type Trace, type TraceEdge, type TraceEvent } from "./types";

/**
 * fast-check generator of valid traces for property tests: distinct event
 * times (so that event order does not depend on array order), causal edges
 * only forward in array order (acyclic), temporal edges anywhere, and every
 * optional field that moves a number (tokens, durations, errors, taint,
 * content for message keys, rewards, reported metrics).
 */
const CAUSAL_TYPES = EDGE_TYPES.filter((t) => t !== "temporal");
const AGENTS = ["orch", "w1", "w2", "w3"];
const TEXTS = ["hello world", "Hello  World", "done", "DONE\u0085", "\ufeffdone", "plan"];

const eventArb = fc.record(
  {
    type: fc.constantFrom(...EVENT_TYPES),
    agent: fc.constantFrom(...AGENTS),
    role: fc.option(fc.constantFrom("planner", "worker"), { nil: undefined }),
    to: fc.option(fc.constantFrom(...AGENTS), { nil: undefined }),
    tool: fc.option(fc.constantFrom("search", "run"), { nil: undefined }),
    content_ref: fc.option(fc.constantFrom("r1", "r2"), { nil: undefined }),
    content: fc.option(fc.constantFrom(...TEXTS), { nil: undefined }),
    trusted: fc.option(fc.boolean(), { nil: undefined }),
    duration: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    tokens: fc.option(fc.integer({ min: 0, max: 500 }), { nil: undefined }),
    status: fc.option(fc.constantFrom("error", "ok"), { nil: undefined }),
    decision: fc.constantFrom(...DECISIONS),
    reason: fc.constantFrom(...STOP_REASONS),
    reward: fc.option(fc.tuple(fc.constantFrom("step_quality", "orchestration", "tool_use_correctness", "stop_decision"), fc.double({ min: -1, max: 1, noNaN: true })), { nil: undefined }),
  },
  { requiredKeys: ["type", "agent", "decision", "reason"] },
);

export const traceArb: fc.Arbitrary<Trace> = fc
  .integer({ min: 1, max: 12 })
  .chain((n) =>
    fc.record({
      times: fc.uniqueArray(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n }),
      events: fc.array(eventArb, { minLength: n, maxLength: n }),
      causal: fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: n - 1 }), fc.constantFrom(...CAUSAL_TYPES)), { maxLength: 2 * n }),
      temporal: fc.array(fc.tuple(fc.nat({ max: n - 1 }), fc.nat({ max: n - 1 })), { maxLength: n }),
      team: fc.option(fc.constantFrom(-1, 0, 1, 0.5), { nil: undefined }),
      process: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
      reported: fc.option(fc.constantFrom(0, 1, 0.7), { nil: undefined }),
    }),
  )
  .map(({ times, events, causal, temporal, team, process, reported }) => {
    const traceEvents = events.map((e, i): TraceEvent => {
      const event: TraceEvent = { id: `e${i}`, t: times[i]! / 10, type: e.type, agent: e.agent };
      if (e.role !== undefined) event.role = e.role;
      if (e.type === "spawn" && e.to !== undefined) event.to = e.to;
      if (e.type === "tool_call" && e.tool !== undefined) event.tool = e.tool;
      if (e.content_ref !== undefined) event.content_ref = e.content_ref;
      if (e.content !== undefined) event.content = e.content;
      if (e.trusted !== undefined) event.trusted = e.trusted;
      if (e.duration !== undefined) event.t_end = event.t + e.duration;
      if (e.tokens !== undefined) event.tokens = e.tokens;
      if (e.status !== undefined) event.status = e.status;
      if (e.type === "orchestrator_decision") {
        event.decision = e.decision;
        if (e.decision === "stop") event.reason = e.reason;
      }
      if (e.reward) event.rewards = { [e.reward[0]]: e.reward[1] };
      return event;
    });
    const seen = new Set<string>();
    const edges: TraceEdge[] = [];
    for (const [a, b, type] of causal) {
      if (a === b) continue;
      const [src, dst] = a < b ? [a, b] : [b, a];
      const key = `${src}>${dst}`;
      if (seen.has(key)) continue;
      seen.add(key);
      edges.push({ src: `e${src}`, dst: `e${dst}`, type });
    }
    for (const [a, b] of temporal) if (a !== b) edges.push({ src: `e${a}`, dst: `e${b}`, type: "temporal" });
    const rewards: Record<string, number> = {};
    if (team !== undefined) rewards.team = team;
    if (process !== undefined) rewards.process = process;
    const tokens = traceEvents.reduce((s, e) => s + (e.tokens ?? 0), 0);
    return {
      trace_id: "generated",
      task_id: "generated-task",
      events: traceEvents,
      edges,
      rewards,
      costs: { tokens, wall_clock_s: 0 },
      ...(reported !== undefined && { metrics: { task_success: reported } }),
    };
  });
