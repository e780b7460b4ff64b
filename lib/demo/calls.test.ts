import { describe, expect, it } from "vitest";
import { prepareTrace } from "../credit";
import { transitionRows } from "../export/transitions";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { validateTrace } from "../trace/validate";
import { demoTraces } from "./demo-traces";

describe("the demo runs' model calls", () => {
  it.each(demoTraces().map((t) => ({ t, id: t.trace_id })))("$id: one call per model-written step, each prompt holding what the step read", ({ t }) => {
    const result = validateTrace(t);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const written = t.events.filter((e) => ["orchestrator_decision", "spawn", "message", "tool_call", "return", "aggregate"].includes(e.type));
    expect(result.trace.calls!.map((c) => c.events[0]).sort()).toEqual(written.map((e) => e.id).sort());
    for (const call of result.trace.calls!) {
      const event = t.events.find((e) => e.id === call.events[0])!;
      const read = t.edges.filter((x) => x.dst === event.id && x.type !== "temporal").map((x) => t.events.find((e) => e.id === x.src)!).filter((e) => e.content !== undefined);
      expect(call.input.slice(1).map((m) => m.content)).toEqual(read.map((e) => e.content));
    }
  });

  it("exports transitions with credit that is not the same on every call", () => {
    const trace = validateTrace(demoTraces()[0]!);
    if (!trace.ok) throw new Error("invalid");
    const rows = [...transitionRows(prepareTrace(trace.trace), trace.trace.calls!, { method: "ccp", preset: BUILTIN_PRESETS.multi_source_research, normalize: false, annotationsAsOf: null })];
    expect(rows.length).toBe(trace.trace.calls!.length);
    expect(new Set(rows.map((r) => r.credit.toFixed(9))).size).toBeGreaterThan(3);
  });
});
