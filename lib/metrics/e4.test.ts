import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { analyzeTrace } from "./analysis";
import { computeE4 } from "./e4";
import { FIREWALL, RICH, SINGLE, STOPPED } from "./fixtures";

const e4 = (spec: Parameters<typeof makeTrace>[0]) => computeE4(analyzeTrace(makeTrace(spec)));

describe("computeE4", () => {
  it("computes overhead, amplification and taint of RICH", () => {
    const r = e4(RICH);
    // coordination tokens: d1 10 + s1 5 + s2 5 + s3 0 + a2 20 + b2 10 + b3 10 + g 30 = 90 of 280
    expect(r.metrics.protocol_overhead).toBeCloseTo(90 / 280, 9);
    // b1 failed: b2, b3, g, x descend from it; 4 of 11
    expect(r.metrics.error_amplification).toBeCloseTo(4 / 11, 9);
    // a1 untrusted: a1, a2, g, x
    expect(r.metrics.tainted_events).toBe(4);
    expect(r.metrics.terminal_tainted).toBe(true);
    expect([...r.errorSource]).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]);
    expect([...r.errorDescendant]).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
  });

  it("counts coordination events when no event has tokens", () => {
    // FIREWALL coordination: m1, m2, m3, ag = 4 of 7
    expect(e4(FIREWALL).metrics.protocol_overhead).toBeCloseTo(4 / 7, 9);
    // SINGLE: one tool_call, no coordination
    expect(e4(SINGLE).metrics.protocol_overhead).toBe(0);
  });

  it("uses event tokens, not costs.tokens", () => {
    // STOPPED tokens: w1 10, r1 5, ag 7, ex 3 = 25; coordination r1 + ag + ex = 15
    expect(e4({ ...STOPPED, tokens: 1000 }).metrics.protocol_overhead).toBeCloseTo(15 / 25, 9);
  });

  it("stops taint at a safety_event and treats it as an error source", () => {
    const r = e4(FIREWALL);
    // u1 -> m1 tainted; sf passes nothing on; h1 is untrusted but a human intervention
    expect(r.metrics.tainted_events).toBe(2);
    expect([...r.tainted]).toEqual([1, 1, 0, 0, 0, 0, 0]);
    expect(r.metrics.terminal_tainted).toBe(false);
    // sf is a source: m2 and ag descend from it
    expect(r.metrics.error_amplification).toBeCloseTo(2 / 7, 9);
  });

  it("never taints a human intervention, even downstream of untrusted input", () => {
    const viaHuman = e4({ ...FIREWALL, edges: [...FIREWALL.edges!, ["u1", "h1"]] });
    expect(viaHuman.metrics.tainted_events).toBe(2);
    const direct = e4({ ...FIREWALL, edges: [...FIREWALL.edges!, ["u1", "m3"]] });
    // u1, m1, m3, ag
    expect(direct.metrics.tainted_events).toBe(4);
    expect(direct.metrics.terminal_tainted).toBe(true);
  });

  it("is zero for a trace without errors or untrusted events", () => {
    expect(e4(SINGLE).metrics).toEqual({
      protocol_overhead: 0,
      error_amplification: 0,
      tainted_events: 0,
      terminal_tainted: false,
    });
  });
});
