import type { AttrValue, Attributes, OtlpSpan } from "./otlp-span";

/**
 * Small hand-written span fixtures for the OTLP adapter tests: times in
 * seconds after BASE, ids from short names, attributes as plain values.
 * `toOtlpJson` writes them as the OTLP/JSON request an exporter would send.
 */

export const BASE_NS = 1_700_000_000_000_000_000n;
export const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

export interface SpanSpec {
  id: string;
  parent?: string;
  name: string;
  start: number;
  end: number;
  attrs?: Attributes;
  error?: string;
  events?: { name: string; at: number; attrs: Attributes }[];
  links?: string[];
  resource?: Attributes;
}

/** A 16-hex-digit span id made from a short name ("s1" -> 0000000000007331, its bytes in hex). */
export const spanId = (name: string) => Buffer.from(name).toString("hex").padStart(16, "0").slice(-16);

const ns = (seconds: number) => String(BASE_NS + BigInt(Math.round(seconds * 1e9)));

export function span(spec: SpanSpec): OtlpSpan {
  return {
    traceId: TRACE,
    spanId: spanId(spec.id),
    ...(spec.parent ? { parentSpanId: spanId(spec.parent) } : {}),
    name: spec.name,
    kind: 1,
    startTimeUnixNano: ns(spec.start),
    endTimeUnixNano: ns(spec.end),
    attributes: spec.attrs ?? {},
    events: (spec.events ?? []).map((e) => ({ name: e.name, timeUnixNano: ns(e.at), attributes: e.attrs })),
    links: (spec.links ?? []).map((l) => ({ traceId: TRACE, spanId: spanId(l), attributes: {} })),
    status: spec.error !== undefined ? { code: 2, message: spec.error } : { code: 0 },
    resource: spec.resource ?? { "service.name": "research-crew", "telemetry.sdk.name": "opentelemetry", "telemetry.sdk.language": "nodejs" },
    scope: { name: "baton-tests" },
  };
}

/** The OTLP/JSON request: one resource (the first span's), one scopeSpans entry per instrumentation scope, in first-seen order. */
export function toOtlpJson(spans: readonly OtlpSpan[]): { resourceSpans: unknown[] } {
  const scopes = [...new Set(spans.map((s) => s.scope.name ?? "baton-tests"))];
  return {
    resourceSpans: [
      {
        resource: { attributes: keyValues(spans[0]?.resource ?? {}) },
        scopeSpans: scopes.map((scope) => ({
          scope: { name: scope },
          spans: spans
            .filter((s) => (s.scope.name ?? "baton-tests") === scope)
            .map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: s.startTimeUnixNano,
              endTimeUnixNano: s.endTimeUnixNano,
              attributes: keyValues(s.attributes),
              events: s.events.map((e) => ({ name: e.name, timeUnixNano: e.timeUnixNano, attributes: keyValues(e.attributes) })),
              links: s.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId, attributes: [] })),
              status: s.status,
            })),
        })),
      },
    ],
  };
}

function keyValues(attributes: Attributes): unknown[] {
  return Object.entries(attributes).map(([key, value]) => ({ key, value: anyValueOf(value) }));
}

function anyValueOf(value: AttrValue): unknown {
  if (typeof value === "string") return { stringValue: value };
  if (typeof value === "boolean") return { boolValue: value };
  if (typeof value === "number") return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  if (Array.isArray(value)) return { arrayValue: { values: value.map(anyValueOf) } };
  if (value === null) return {};
  return { kvlistValue: { values: keyValues(value) } };
}

const chat = (input: number, output: number, extra: Attributes = {}): Attributes => ({
  "gen_ai.operation.name": "chat",
  "gen_ai.request.model": "gpt-test",
  "gen_ai.usage.input_tokens": input,
  "gen_ai.usage.output_tokens": output,
  ...extra,
});
const agent = (name: string, extra: Attributes = {}): Attributes => ({ "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name, ...extra });
const tool = (name: string, callId: string): Attributes => ({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": name, "gen_ai.tool.call.id": callId });

/**
 * An orchestrator plans (chat), runs a researcher (chat, search tool, chat)
 * and then a coder (a failing run_code tool, then a chat judged by an
 * evaluation), and writes the answer (chat, linked to the search).
 */
export function orchestratorRun(): OtlpSpan[] {
  return [
    span({ id: "s1", name: "invoke_agent orchestrator", start: 0, end: 10, attrs: agent("orchestrator", { "gen_ai.conversation.id": "conv-1", "gen_ai.output.messages": "the answer" }) }),
    span({ id: "s2", parent: "s1", name: "chat gpt-test", start: 0.5, end: 1, attrs: chat(100, 20, { "gen_ai.output.messages": "plan: research, then code" }) }),
    span({ id: "s3", parent: "s1", name: "invoke_agent researcher", start: 1, end: 5, attrs: agent("researcher", { "gen_ai.input.messages": "find sources" }) }),
    span({ id: "s4", parent: "s3", name: "chat gpt-test", start: 1.2, end: 1.8, attrs: chat(50, 10, { "gen_ai.output.messages": '[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"search"}]}]' }) }),
    span({ id: "s5", parent: "s3", name: "execute_tool search", start: 2, end: 3, attrs: { ...tool("search", "call_1"), "gen_ai.tool.call.arguments": '{"q":"otel"}', "gen_ai.tool.call.result": "3 hits" } }),
    span({ id: "s6", parent: "s3", name: "chat gpt-test", start: 3.2, end: 4, attrs: chat(80, 30, { "gen_ai.input.messages": '[{"role":"tool","parts":[{"type":"tool_call_response","id":"call_1"}]}]' }) }),
    span({ id: "s7", parent: "s1", name: "invoke_agent coder", start: 5.5, end: 9, attrs: agent("coder") }),
    span({ id: "s8", parent: "s7", name: "execute_tool run_code", start: 6, end: 7, attrs: { ...tool("run_code", "call_2"), "error.type": "RuntimeError" }, error: "exit 1" }),
    span({
      id: "s9", parent: "s7", name: "chat gpt-test", start: 7.5, end: 8.5, attrs: chat(60, 40),
      events: [{ name: "gen_ai.evaluation.result", at: 8.6, attrs: { "gen_ai.evaluation.name": "relevance", "gen_ai.evaluation.score.value": 0.75 } }],
    }),
    span({ id: "s10", parent: "s1", name: "chat gpt-test", start: 9.2, end: 9.8, attrs: chat(40, 20), links: ["s5"] }),
  ];
}
