import type { CallMessage, ModelCall } from "../trace/calls";
import type { RecordedCall } from "./call";
import { pushTo } from "../util/group";

/**
 * One call, two witnesses (docs/gateway.md "Gateway and OTLP: one call
 * stored once"): a framework that exports OTLP spans and sends its model
 * calls through the gateway reports each call twice. The OTLP trace keeps
 * the call where its spans put it (its id, agent, times and the events it
 * produced); the gateway's record supplies what the model saw and said
 * (messages, tools, parameters, reply, token ids). A gateway call joins a
 * span's call
 * 1. by `traceparent`, exactly: the request carried the OTLP trace's id and
 *    a span id that is the LLM span's own or one of its descendants (an
 *    HTTP client span under it);
 * 2. else by content and time: a gateway call without a traceparent whose
 *    messages carry the same texts in the same order as the span's, that
 *    started within the span's time (with SLACK_S either side), each
 *    gateway call joining at most one span's call, earliest first.
 * A span call that neither finds keeps its OTLP fields.
 */

/** Clock slack between the app that timed the span and Baton that timed the call (seconds). */
export const SLACK_S = 2;

export interface GatewayCandidate {
  rowId: string;
  call: RecordedCall;
  /** from the request's W3C traceparent header, when it had one */
  otelTraceId: string | null;
  otelSpanId: string | null;
}

export interface SpanCall {
  call: ModelCall;
  /** the call's span and its start and end as epoch seconds */
  spanId: string;
  start: number;
  end: number;
}

export interface Join {
  /** index into the span calls */
  callIndex: number;
  rowId: string;
  how: "traceparent" | "content";
}

/** The text of a message as the join compares it: string content, or text parts joined; tool calls by name and arguments. */
function messageText(m: CallMessage): string {
  const content = typeof m.content === "string" ? m.content : m.content === null ? "" : m.content.map((p) => (typeof p.text === "string" ? p.text : "")).join("\n");
  const calls = (m.tool_calls ?? []).map((c) => `${c.name}(${typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments)})`).join(";");
  return `${content.trim()}\u0000${calls}`;
}

/** The content key of a call's prompt: its messages' texts in order, empty ones left out (frameworks differ in what empty turns they report). */
export function promptKey(input: readonly CallMessage[]): string {
  return input.map(messageText).filter((t) => t !== "\u0000").join("\u0001");
}

/**
 * The joins of one OTLP trace's calls with gateway calls. `parentOf` maps
 * each span of the trace to its parent, so that a traceparent naming an
 * HTTP span under the LLM span still finds it.
 */
export function joinCalls(otelTraceId: string, spanCalls: readonly SpanCall[], parentOf: ReadonlyMap<string, string | undefined>, candidates: readonly GatewayCandidate[]): Join[] {
  const joins: Join[] = [];
  const used = new Set<string>();
  const joined = new Set<number>();
  const callOfSpan = new Map(spanCalls.map((c, i) => [c.spanId, i]));

  // 1. traceparent: walk up from the span the request named to the nearest LLM span with a call
  const traced = candidates.filter((g) => g.otelTraceId === otelTraceId && g.otelSpanId !== null).sort((a, b) => a.call.t - b.call.t);
  for (const g of traced) {
    let at: string | undefined = g.otelSpanId!;
    const seen = new Set<string>();
    while (at !== undefined && !callOfSpan.has(at) && !seen.has(at)) {
      seen.add(at);
      at = parentOf.get(at);
    }
    const index = at !== undefined ? callOfSpan.get(at) : undefined;
    if (index === undefined || joined.has(index)) continue;
    joins.push({ callIndex: index, rowId: g.rowId, how: "traceparent" });
    joined.add(index);
    used.add(g.rowId);
  }

  // 2. content and time, for gateway calls that carried no traceparent
  const byKey = new Map<string, GatewayCandidate[]>();
  for (const g of candidates) {
    if (g.otelTraceId !== null || used.has(g.rowId)) continue;
    const key = promptKey(g.call.input);
    pushTo(byKey, key, g);
  }
  for (const list of byKey.values()) list.sort((a, b) => a.call.t - b.call.t);
  const order = spanCalls.map((c, i) => i).sort((a, b) => spanCalls[a]!.start - spanCalls[b]!.start);
  for (const i of order) {
    if (joined.has(i)) continue;
    const span = spanCalls[i]!;
    const list = byKey.get(promptKey(span.call.input));
    const g = list?.find((c) => !used.has(c.rowId) && c.call.t >= span.start - SLACK_S && c.call.t <= span.end + SLACK_S);
    if (g === undefined) continue;
    joins.push({ callIndex: i, rowId: g.rowId, how: "content" });
    joined.add(i);
    used.add(g.rowId);
  }
  return joins.sort((a, b) => a.callIndex - b.callIndex);
}

/** The call stored: where the span put it (id, agent, times, events), what the gateway saw (everything the model was sent and said). */
export function mergedCall(span: ModelCall, gateway: RecordedCall): ModelCall {
  const { agent: _agent, t: _t, t_end: _tEnd, ...seen } = gateway;
  return {
    ...seen,
    id: span.id,
    agent: span.agent,
    t: span.t,
    ...(span.t_end !== undefined && { t_end: span.t_end }),
    source: "gateway",
    events: span.events,
  };
}
