import type { ModelCall } from "../trace/calls";
import type { ObjectMetadataTrace, TraceEvent } from "../trace/types";
import { pushTo } from "../util/group";

/**
 * The demo runs' model calls (SPEC.md section 6): every step an agent's
 * model wrote (a decision, spawn, message, tool call, return or aggregate)
 * is one call whose prompt is the agent's system line plus what the step
 * read (the content of its direct causal predecessors, tool results as
 * `tool` messages) and whose answer is the step's own content. So the demo
 * data exports as transitions, one per call, like a captured run.
 */
const WRITTEN_BY_A_MODEL: ReadonlySet<TraceEvent["type"]> = new Set(["orchestrator_decision", "spawn", "message", "tool_call", "return", "aggregate"]);

export function withModelCalls<T extends ObjectMetadataTrace>(trace: T): T {
  const byId = new Map(trace.events.map((e) => [e.id, e]));
  const readBy = new Map<string, TraceEvent[]>();
  for (const edge of trace.edges) {
    if (edge.type === "temporal") continue;
    const src = byId.get(edge.src);
    if (src?.content !== undefined) pushTo(readBy, edge.dst, src);
  }
  const calls: ModelCall[] = trace.events
    .filter((e) => WRITTEN_BY_A_MODEL.has(e.type))
    .map((e) => ({
      id: `call-${e.id}`,
      agent: e.agent,
      t: e.t,
      ...(e.t_end !== undefined && { t_end: e.t_end }),
      model: "demo-model",
      input: [
        { role: "system", content: `You are ${e.agent}${e.role !== undefined ? `, the ${e.role}` : ""}.` },
        ...(readBy.get(e.id) ?? []).map((r) => ({ role: r.type === "tool_result" ? "tool" : r.agent === e.agent ? "assistant" : "user", content: r.content! })),
      ],
      output: { role: "assistant", content: e.content ?? `${e.type}${e.decision !== undefined ? ` ${e.decision}` : ""}${e.to !== undefined ? ` -> ${e.to}` : ""}${e.tool !== undefined ? ` ${e.tool}` : ""}` },
      ...(e.tokens !== undefined && { output_tokens: e.tokens }),
      events: [e.id],
    }));
  return { ...trace, calls };
}
