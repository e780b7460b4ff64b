import { describe, expect, it } from "vitest";
import type { ModelCall } from "../trace/calls";
import { joinCalls, mergedCall, type GatewayCandidate, type SpanCall } from "./join";

const T0 = 1_800_000_000;
const TRACE = "0af7651916cd43dd8448eb211c80319c";

const spanCall = (spanId: string, start: number, end: number, question: string): SpanCall => ({
  spanId,
  start: T0 + start,
  end: T0 + end,
  call: { id: spanId, agent: "writer", t: start, t_end: end, input: [{ role: "user", content: question }], output: "x", source: "otlp", events: [`e-${spanId}`] },
});
const gateway = (rowId: string, t: number, question: string, traceparent: [string, string] | null = null): GatewayCandidate => ({
  rowId,
  otelTraceId: traceparent?.[0] ?? null,
  otelSpanId: traceparent?.[1] ?? null,
  call: { agent: "gw-lane", t: T0 + t, t_end: T0 + t + 0.5, input: [{ role: "system", content: "" }, { role: "user", content: question }], output: { role: "assistant", content: "seen" }, tools: [{ type: "function" }], prompt_token_ids: [1, 2], response_token_ids: [3], token_source: "server", source: "gateway" },
});

describe("joining gateway calls to the calls of an OTLP trace", () => {
  it("by traceparent: the LLM span itself or an HTTP span under it, whatever the content", () => {
    const calls = [spanCall("llm1", 1, 2, "a"), spanCall("llm2", 3, 4, "b")];
    const parents = new Map<string, string | undefined>([["llm1", "agent"], ["llm2", "agent"], ["http2", "llm2"], ["agent", undefined]]);
    const joins = joinCalls(TRACE, calls, parents, [gateway("g2", 50, "other text", [TRACE, "http2"]), gateway("g1", 1.1, "zzz", [TRACE, "llm1"])]);
    expect(joins).toEqual([{ callIndex: 0, rowId: "g1", how: "traceparent" }, { callIndex: 1, rowId: "g2", how: "traceparent" }]);
    // another trace's id never joins, not even by content
    expect(joinCalls(TRACE, calls, parents, [gateway("g3", 1.1, "a", ["f".repeat(32), "llm1"])])).toEqual([]);
  });

  it("by content and time: the same texts in order (empty messages aside), started within the span (2 s slack), each gateway call once", () => {
    const calls = [spanCall("s1", 10, 11, "same"), spanCall("s2", 20, 21, "same"), spanCall("s3", 30, 31, "lonely")];
    const joins = joinCalls(TRACE, calls, new Map(), [gateway("late", 20.2, "same"), gateway("early", 10.1, "same"), gateway("far", 40, "lonely"), gateway("near", 32.9, "lonely")]);
    expect(joins).toEqual([
      { callIndex: 0, rowId: "early", how: "content" },
      { callIndex: 1, rowId: "late", how: "content" },
      { callIndex: 2, rowId: "near", how: "content" },
    ]);
    expect(joinCalls(TRACE, [spanCall("s1", 10, 11, "same")], new Map(), [gateway("other", 10.1, "not the same")])).toEqual([]);
  });

  it("the stored call: the span's place, the gateway's view", () => {
    const span = spanCall("s1", 10, 11, "q").call;
    const g = gateway("g", 10.1, "q").call;
    const merged: ModelCall = mergedCall(span, g);
    expect(merged).toEqual({ ...g, id: "s1", agent: "writer", t: 10, t_end: 11, source: "gateway", events: ["e-s1"] });
  });
});
