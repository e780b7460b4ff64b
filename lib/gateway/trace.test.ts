import { describe, expect, it } from "vitest";
import { validateTrace } from "@/lib/trace/validate";
import { recordedCall } from "./call";
import { chatReplyPart, chatRequestPart } from "./chat";
import { FIRST_REQUEST, PARALLEL_TOOL_REPLY, SECOND_REQUEST, TEXT_REPLY } from "./fixtures";
import { runTrace } from "./trace";

const T0 = 1_764_547_200;
const run = { traceId: "gw-run-1", project: "default", runKey: "run-1" };
const planner = (request: Record<string, unknown>, reply: Record<string, unknown>, t: number) => recordedCall("planner", T0 + t, T0 + t + 0.5, chatRequestPart(request), chatReplyPart(reply));

describe("a gateway run becomes a trace", () => {
  const trace = runTrace(run, [
    { call: planner(SECOND_REQUEST, TEXT_REPLY, 2), outcome: "complete" },
    { call: planner(FIRST_REQUEST, PARALLEL_TOOL_REPLY, 0), outcome: "complete" },
    { call: recordedCall("critic", T0 + 1, T0 + 1.25, chatRequestPart({ model: "scripted", messages: [{ role: "user", content: "ok?" }] }), chatReplyPart(TEXT_REPLY)), outcome: "client_disconnected" },
  ]);

  it("is a valid trace with its calls: one lane per agent, times from the first call", () => {
    const result = validateTrace(trace);
    expect(result.ok).toBe(true);
    expect(new Set(trace.events.map((e) => e.agent))).toEqual(new Set(["planner", "critic"]));
    expect(trace.calls!.map((c) => [c.id, c.agent, c.t, c.t_end, c.source])).toEqual([
      ["call-1", "planner", 0, 0.5, "gateway"],
      ["call-2", "critic", 1, 1.25, "gateway"],
      ["call-3", "planner", 2, 2.5, "gateway"],
    ]);
  });

  it("each tool call an event, each result linked to it by tool_call_id, the final answer the terminal aggregate", () => {
    expect(trace.events.map((e) => [e.id, e.type, e.tool ?? e.content ?? null])).toEqual([
      ["turn-1", "message", null],
      ["tool-1-1", "tool_call", "get_weather"],
      ["tool-1-2", "tool_call", "get_weather"],
      ["turn-2", "message", "Paris 18 C, Oslo 4 C."],
      ["result-1-1", "tool_result", "18 C"],
      ["result-1-2", "tool_result", "4 C"],
      ["turn-3", "message", "Paris 18 C, Oslo 4 C."],
      ["final", "aggregate", "Paris 18 C, Oslo 4 C."],
    ]);
    expect(trace.edges).toContainEqual({ src: "tool-1-1", dst: "result-1-1", type: "tool_dependency" });
    expect(trace.edges).toContainEqual({ src: "result-1-2", dst: "turn-3", type: "causal" });
    expect(trace.edges).toContainEqual({ src: "turn-1", dst: "turn-2", type: "message" });
    expect(trace.edges).toContainEqual({ src: "turn-1", dst: "turn-3", type: "causal" });
    expect(trace.events.find((e) => e.id === "turn-2")!.status).toBe("client_disconnected");
    expect(trace.calls!.map((c) => c.events)).toEqual([["turn-1", "tool-1-1", "tool-1-2"], ["turn-2"], ["turn-3", "final"]]);
    expect(trace.costs.tokens).toBe(43 + 69 + 69);
  });
});
