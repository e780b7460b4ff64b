import type { ModelCall } from "@/lib/trace/calls";
import type { Trace, TraceEdge, TraceEvent } from "@/lib/trace/types";
import type { CallOutcome, RecordedCall } from "./call";

/**
 * A gateway run as a trace (docs/gateway.md "From calls to a trace"):
 * - one lane per agent;
 * - each call a model turn: a `message` event of its agent (content: the
 *   reply's text; tokens: its usage; status `error` when the upstream
 *   failed, `client_disconnected` when the client left mid-reply), with a
 *   `causal` edge from the agent's previous turn, or, for an agent's first
 *   turn, a `message` edge from the turn just before it in the run;
 * - each tool call of a reply a `tool_call` event (causal edge from its turn);
 * - a tool result (a `tool` message with `tool_call_id`) a `tool_result`
 *   event, at the first call whose prompt carries it, linked
 *   `tool_dependency` from its tool call and `causal` to that call's turn;
 * - the last call's text, when it calls no tool, the terminal `aggregate`
 *   (the final answer);
 * - the calls attached (`calls`), each with the events it produced; times
 *   in seconds from the run's first call.
 */

export interface RunCall {
  call: RecordedCall;
  outcome: CallOutcome;
}

export interface RunInfo {
  traceId: string;
  project: string;
  runKey: string;
}

const STATUS: Record<CallOutcome, string | undefined> = {
  complete: undefined,
  client_disconnected: "client_disconnected",
  upstream_error: "error",
  upstream_timeout: "error",
};

const round = (x: number) => Math.round(x * 1e6) / 1e6;

export function runTrace(run: RunInfo, runCalls: readonly RunCall[]): Trace {
  const ordered = [...runCalls].sort((a, b) => a.call.t - b.call.t);
  const t0 = ordered[0]?.call.t ?? 0;
  const events: TraceEvent[] = [];
  const edges: TraceEdge[] = [];
  const calls: ModelCall[] = [];
  const lastTurnOf = new Map<string, string>();
  const toolCallEvent = new Map<string, string>();
  const resultSeen = new Set<string>();
  let previousTurn: string | null = null;
  let tokens = 0;
  let end = 0;

  ordered.forEach(({ call, outcome }, i) => {
    const n = i + 1;
    const t = round(call.t - t0);
    const tEnd = round((call.t_end ?? call.t) - t0);
    end = Math.max(end, tEnd);
    const turn = `turn-${n}`;
    // tool results first in this call's prompt: the model read them before answering
    for (const message of call.input) {
      const id = message.role === "tool" ? message.tool_call_id : undefined;
      if (id === undefined || resultSeen.has(id)) continue;
      resultSeen.add(id);
      const from = toolCallEvent.get(id);
      const result = from !== undefined ? `result-${from.slice("tool-".length)}` : `result-${n}-${id}`;
      events.push({ id: result, t, type: "tool_result", agent: call.agent, ...(typeof message.content === "string" && { content: message.content }) });
      if (from !== undefined) edges.push({ src: from, dst: result, type: "tool_dependency" });
      edges.push({ src: result, dst: turn, type: "causal" });
    }
    const output = typeof call.output === "string" ? { content: call.output, tool_calls: undefined } : call.output;
    const text = typeof output.content === "string" ? output.content : undefined;
    const used = (call.input_tokens ?? 0) + (call.output_tokens ?? 0);
    tokens += used;
    const status = STATUS[outcome];
    events.push({
      id: turn, t, t_end: tEnd, type: "message", agent: call.agent,
      ...(text !== undefined && { content: text }),
      ...(used > 0 && { tokens: used }),
      ...(status !== undefined && { status }),
    });
    const before = lastTurnOf.get(call.agent);
    if (before !== undefined) edges.push({ src: before, dst: turn, type: "causal" });
    else if (previousTurn !== null) edges.push({ src: previousTurn, dst: turn, type: "message" });
    lastTurnOf.set(call.agent, turn);
    previousTurn = turn;
    const produced = [turn];
    (output.tool_calls ?? []).forEach((toolCall, j) => {
      const id = `tool-${n}-${j + 1}`;
      const args = typeof toolCall.arguments === "string" ? toolCall.arguments : JSON.stringify(toolCall.arguments);
      events.push({ id, t: tEnd, type: "tool_call", agent: call.agent, tool: toolCall.name || "unknown", content: args });
      edges.push({ src: turn, dst: id, type: "causal" });
      // a server that reuses ids (call_0 every turn) starts a new result each time
      if (toolCall.id !== undefined) {
        toolCallEvent.set(toolCall.id, id);
        resultSeen.delete(toolCall.id);
      }
      produced.push(id);
    });
    const last = i === ordered.length - 1;
    if (last && text !== undefined && (output.tool_calls ?? []).length === 0 && outcome === "complete") {
      events.push({ id: "final", t: tEnd, type: "aggregate", agent: call.agent, content: text });
      edges.push({ src: turn, dst: "final", type: "aggregate" });
      produced.push("final");
    }
    calls.push({ ...call, id: `call-${n}`, t, t_end: tEnd, events: produced });
  });

  return {
    trace_id: run.traceId,
    task_id: run.runKey,
    system: "gateway",
    topology: "unknown",
    project: run.project,
    metadata: { source: "gateway", run: run.runKey, agents: [...lastTurnOf.keys()] },
    events,
    edges,
    rewards: {},
    costs: { tokens, wall_clock_s: end },
    calls,
  };
}
