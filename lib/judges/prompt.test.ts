import { describe, expect, it } from "vitest";
import type { EventContext, TraceContext } from "../annotate/unit";
import { DEFAULT_RUBRICS } from "../rubrics";
import { CHARS_PER_TOKEN, promptHash, systemPrompt, userPrompt } from "./prompt";

const ev = (id: string, content: string) => ({ id, seq: 0, t: 0, type: "message", agent: "a", role: null, from: null, to: null, tool: null, decision: null, status: null, tokens: null, content, content_length: content.length });

describe("judge prompts", () => {
  it("stays within the token budget and marks every cut", () => {
    const ctx: EventContext = { unit: "event", trace_id: "t", event: ev("e1", "x".repeat(50_000)), read: [{ ...ev("e0", "y".repeat(50_000)), edge: "causal" }], read_more: 3, results: [] };
    const text = userPrompt(ctx, 1000);
    expect(text.length).toBeLessThanOrEqual(1000 * CHARS_PER_TOKEN + 200);
    expect(text).toContain("[... truncated:");
    expect(text).toContain("e0 (message)");
  });
  it("shows short content whole", () => {
    const ctx: EventContext = { unit: "event", trace_id: "t", event: ev("e1", "hello"), read: [], read_more: 0, results: [] };
    expect(userPrompt(ctx, 1000)).toContain("hello");
    expect(userPrompt(ctx, 1000)).not.toContain("truncated");
  });
  it("the hash changes with the instructions, the model and the settings", () => {
    const a = systemPrompt(DEFAULT_RUBRICS.step_quality, "event", "");
    const b = systemPrompt(DEFAULT_RUBRICS.step_quality, "event", "Be strict.");
    expect(promptHash(a, "m", 0, 200)).not.toBe(promptHash(b, "m", 0, 200));
    expect(promptHash(a, "m", 0, 200)).not.toBe(promptHash(a, "m2", 0, 200));
    expect(promptHash(a, "m", 0, 200)).toBe(promptHash(a, "m", 0, 200));
    expect(systemPrompt(DEFAULT_RUBRICS.task_success, "trace", "")).toContain("Answer 0 (failure");
  });
  it("a whole-trace prompt carries the project's grader fields after the task and reference, those the run has", () => {
    const ctx: TraceContext = {
      unit: "trace", trace_id: "t", task_id: "k", system: null, events: 2, task: "Book the cheapest flight", task_source: "metadata.labels.task.instruction",
      reference: { text: "UA 12", source: "metadata.labels.ground_truth" }, policy: null,
      fields: [{ label: "Level", source: "metadata.labels.level", text: "2" }, { label: "Tier", source: "metadata.tier", text: null }],
      final_answer: ev("e2", "Booked UA 12"), agents: [], timeline: [], timeline_gap: 0,
    };
    const text = userPrompt(ctx, 2000);
    expect(text.indexOf("## Task (metadata.labels.task.instruction)")).toBeLessThan(text.indexOf("## Reference answer"));
    expect(text.indexOf("## Reference answer")).toBeLessThan(text.indexOf("## Level (metadata.labels.level)\n2"));
    expect(text.indexOf("## Level")).toBeLessThan(text.indexOf("## Final answer"));
    expect(text).not.toContain("Tier");
  });
});
