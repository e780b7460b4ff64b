import { describe, expect, it } from "vitest";
import { demoTraces } from "../demo";
import { makeTrace } from "../graph/fixtures";
import { humanLabelsFrom } from "../rewards";
import { ALL_USED, LEAN_TALK, ONE_OF_THREE_UNUSED, PADDED_TALK, SPAMMED_TOOLS, UNUSED_WORKER } from "./fixtures";
import { computeDiagnostics } from "./index";

const diag = (spec: Parameters<typeof makeTrace>[0]) => computeDiagnostics(makeTrace(spec));

describe("pseudo_parallelism", () => {
  it("fires when half the spawned agents never reach the outcome, naming their spawns", () => {
    expect(diag(UNUSED_WORKER).detectors.pseudo_parallelism).toEqual({ value: 0.5, threshold: 0.5, flagged: true, events: ["s2"] });
  });
  it("does not fire for one unused agent of three", () => {
    const d = diag(ONE_OF_THREE_UNUSED).detectors.pseudo_parallelism;
    expect(d.value).toBe(0);
    expect(d.flagged).toBe(false);
  });
  it("does not fire for a single spawned agent, even unused (one spawn is no parallelism)", () => {
    const d = diag({ events: [{ id: "s", t: 0, type: "spawn", agent: "lead", to: "X" }, { id: "g", t: 1, type: "aggregate", agent: "lead" }], edges: [] }).detectors.pseudo_parallelism;
    expect(d).toEqual({ value: 1, threshold: 0.5, flagged: false, events: ["s"] });
  });
  it("is null without spawns", () => {
    expect(diag(PADDED_TALK).detectors.pseudo_parallelism.value).toBeNull();
  });
});

describe("free_riding", () => {
  // Uniform preset, CCP. task_success = +1 at g, decay 0.7: A gets 0.7^3 + 0.7^2 + 0.7 on a1..a3;
  // tool_use_correctness: a1 and b1 each +1 (a successful tool_result follows);
  // parallelism_speedup R = 1 - 1/(9 events / 6 critical steps) = 1/3, 1/6 on each spawn;
  // lead: 1 (g) + 0.7^4 (s1) + 0.7^5 (d) + 1/6 + 1/6. B: 1 (b1), and B never reaches g.
  const a = 1 + 0.343 + 0.49 + 0.7;
  const lead = 1 + 0.2401 + 0.16807 + 1 / 3;
  it("fires when an agent that reaches nothing holds positive credit", () => {
    const d = diag(UNUSED_WORKER).detectors.free_riding;
    expect(d.value).toBeCloseTo(1 / (a + lead + 1), 12);
    expect(d.flagged).toBe(true);
    expect(d.events).toEqual(["b1"]);
  });
  it("does not fire when every agent with credit reaches the outcome", () => {
    expect(diag(ALL_USED).detectors.free_riding).toMatchObject({ value: 0, flagged: false, events: [] });
  });
  it("is null when no agent holds positive credit", () => {
    // only cost credit here, and its weight is -1 under the uniform preset
    expect(diag({ events: [{ id: "x", t: 0, type: "tool_result", agent: "A", tokens: 10 }], tokens: 10 }).detectors.free_riding.value).toBeNull();
  });
  it("uses human labels: a failed run takes the task credit away, and a negative share counts for nobody", () => {
    const labels = humanLabelsFrom([{ event_id: null, family: "task_success", value: 0 }], []);
    const d = computeDiagnostics(makeTrace(UNUSED_WORKER), labels).detectors.free_riding;
    // now A: 1 - 1.533 < 0, lead: -1.40817 + 1/3 < 0; B keeps its +1: all positive credit is B's
    expect(d.value).toBeCloseTo(1, 12);
  });
});

describe("communication_padding", () => {
  it("fires on repeated and unused text, weighted by length", () => {
    expect(diag(PADDED_TALK).detectors.communication_padding).toEqual({ value: 20 / 34, threshold: 0.5, flagged: true, events: ["m2", "m3"] });
  });
  it("does not fire when only a short message is unused", () => {
    const d = diag(LEAN_TALK).detectors.communication_padding;
    expect(d.value).toBeCloseTo(5 / 30, 15);
    expect(d.flagged).toBe(false);
  });
  it("never counts the terminal message as unused, and needs two messages", () => {
    const chain = diag({ events: [{ id: "m1", t: 0, type: "message", agent: "A", content: "a" }, { id: "m2", t: 1, type: "message", agent: "B", content: "b" }], edges: [["m1", "m2"]] });
    expect(chain.detectors.communication_padding.value).toBe(0);
    const lone = diag({ events: [{ id: "m", t: 0, type: "message", agent: "A", content: "hi" }, { id: "g", t: 1, type: "aggregate", agent: "L" }] });
    expect(lone.detectors.communication_padding).toMatchObject({ value: 1, flagged: false });
  });
  it("counts a message without content as one code point, and code points, not UTF-16 units", () => {
    const d = diag({
      events: [{ id: "m1", t: 0, type: "message", agent: "A", content: "😀😀" }, { id: "m2", t: 1, type: "message", agent: "B" }, { id: "g", t: 2, type: "aggregate", agent: "L" }],
      edges: [["m1", "g"]],
    });
    expect(d.detectors.communication_padding.value).toBeCloseTo(1 / 3, 15);
  });
});

describe("tool_spam", () => {
  it("fires when two of three tool calls reach nothing", () => {
    expect(diag(SPAMMED_TOOLS).detectors.tool_spam).toEqual({ value: 2 / 3, threshold: 0.5, flagged: true, events: ["b1", "b3"] });
  });
  it("does not fire for a single unused call, even at half", () => {
    expect(diag(UNUSED_WORKER).detectors.tool_spam).toEqual({ value: 0.5, threshold: 0.5, flagged: false, events: ["b1"] });
  });
  it("is null without tool calls", () => {
    expect(diag(PADDED_TALK).detectors.tool_spam.value).toBeNull();
  });
});

describe("computeDiagnostics", () => {
  it("lists the flagged detectors in order", () => {
    expect(diag(SPAMMED_TOOLS).flags).toEqual(["pseudo_parallelism", "free_riding", "tool_spam"]);
    expect(diag(ALL_USED).flags).toEqual([]);
  });
});

describe("the demo's reward-hacking runs (scenario e)", () => {
  it("each show their patterns; of the others only the redundant debate pads", () => {
    const flagged = demoTraces().flatMap((t) => { const { flags } = computeDiagnostics(t); return flags.length > 0 ? [[t.trace_id, flags]] : []; });
    expect(flagged).toEqual([
      ["demo-debate-webhooks-late-stop", ["communication_padding"]],
      ["demo-hacking-fanout-for-show", ["pseudo_parallelism", "free_riding", "tool_spam"]],
      ["demo-hacking-padding-for-judge", ["free_riding", "communication_padding"]],
    ]);
  });
});

describe("labels", () => {
  it("read only the trace-level task_success label, as the stored metrics do", () => {
    const eventLabel = humanLabelsFrom([{ event_id: "b1", family: "tool_use_correctness", value: -1 }], []);
    expect(computeDiagnostics(makeTrace(UNUSED_WORKER), eventLabel)).toEqual(diag(UNUSED_WORKER));
  });
});
