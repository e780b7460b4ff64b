import { describe, expect, it } from "vitest";
import { laneLayout, tickStep } from "./lanes";

describe("laneLayout", () => {
  it("puts every rollout on one axis of time since its own start", () => {
    const l = laneLayout([
      { trace_id: "a", start: 100, events: [{ id: "x", step: 0, t: 100, t_end: 104, type: "message", key: "k" }, { id: "y", step: 1, t: 110, t_end: null, type: "aggregate", key: "k" }] },
      { trace_id: "b", start: 0, events: [{ id: "z", step: 0, t: 5, t_end: 20, type: "spawn", key: "k" }] },
    ], 1036, 220);
    // span 20 s (b ends at 20); 1036 - 220 - 16 = 800 px for it: 40 px per second from x = 220
    expect(l.span).toBe(20);
    expect(l.lanes[0]!.glyphs.map((g) => [g.x, g.barEnd, g.since])).toEqual([[220, 380, 0], [620, null, 10]]);
    expect(l.lanes[1]!.glyphs[0]).toMatchObject({ x: 420, barEnd: 1020, since: 5 });
    expect(l.lanes.map((x) => x.y)).toEqual([25, 59]);
    expect(l.ticks.map((t) => t.label)).toEqual(["0 s", "5 s", "10 s", "15 s", "20 s"]);
  });

  it("labels the ticks as steps, without a unit of seconds, on the step clock", () => {
    const l = laneLayout([{ trace_id: "a", start: 0, events: [{ id: "x", step: 0, t: 0, t_end: null, type: "message", key: "k" }, { id: "y", step: 1, t: 12, t_end: null, type: "message", key: "k" }] }], 960, 220, "steps");
    expect(l.ticks.map((t) => t.label)).toEqual(["0", "2", "4", "6", "8", "10", "12"]);
  });

  it("ticks at 1, 2 or 5 times a power of ten", () => {
    expect([tickStep(20), tickStep(6), tickStep(0.9), tickStep(700)]).toEqual([5, 1, 0.2, 200]);
  });
});
