import { describe, expect, it } from "vitest";
import { makeTrace, type TraceSpec } from "../graph/fixtures";
import { humanLabelsFrom, type HumanLabels } from "../rewards/labels";
import { BUILTIN_PRESETS } from "../rewards/presets";
import type { Family } from "../trace/types";
import { ORCH_REACH, SEED_CHAIN, STOPS, TWO_SPAWNS } from "./fixtures";
import { computeCredit, type CreditResponse } from "./index";

const ccp = (spec: TraceSpec, options: { normalize?: boolean; labels?: HumanLabels } = {}) =>
  computeCredit(makeTrace(spec), { method: "ccp", ...options });

/** credit_f by event id. */
function family(res: CreditResponse, f: Family): Record<string, number> {
  return Object.fromEntries(res.events.map((e) => [e.id, e.by_family[f]!]));
}

function expectClose(actual: Record<string, number>, expected: Record<string, number>) {
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const [id, v] of Object.entries(expected)) expect(actual[id], id).toBeCloseTo(v, 9);
}

describe("ccp task_success", () => {
  it("reproduces seed 000's worked example", () => {
    const res = ccp(SEED_CHAIN);
    // r = R / |A| = -1 at the aggregate; gamma 0.7 per hop: 0.7^3 = 0.343, 0.7^2 = 0.49, 0.7
    expectClose(family(res, "task_success"), { decide: -0.343, spawn: -0.49, return: -0.7, aggregate: -1 });
    // every other family is 0 here (parallelism 1 - 1/1 = 0, cost 0 tokens), so C(v) equals it
    expectClose(Object.fromEntries(res.events.map((e) => [e.id, e.total])), {
      decide: -0.343, spawn: -0.49, return: -0.7, aggregate: -1,
    });
    expect(res.r_total).toBeCloseTo(-1, 9); // 1 x -1 + 1 x 0 (parallelism) - 1 x 0 (cost)
  });

  it("gives the same from a human failure label (R = 2 x 0 - 1)", () => {
    const labels = humanLabelsFrom([{ event_id: null, family: "task_success", value: 0 }]);
    const res = ccp({ ...SEED_CHAIN, rewards: { task_success: 1 } }, { labels });
    expectClose(family(res, "task_success"), { decide: -0.343, spawn: -0.49, return: -0.7, aggregate: -1 });
  });

  it("lists all eight families for every event, in event order", () => {
    const res = ccp(SEED_CHAIN);
    expect(res.events.map((e) => e.id)).toEqual(["decide", "spawn", "return", "aggregate"]);
    for (const e of res.events) expect(Object.keys(e.by_family)).toHaveLength(8);
    expect(res.events[0]!.by_family.cost).toBe(0);
  });
});

describe("ccp step_quality", () => {
  it("an orchestrator's decision is a step_quality anchor (baton-spec-4): its label is its credit, the trace value is shared over four anchors", () => {
    // a person marks the plan as a bad step; nothing else is labelled
    const labels = humanLabelsFrom([{ event_id: "decide", family: "step_quality", value: -1 }]);
    expectClose(family(ccp(SEED_CHAIN, { labels }), "step_quality"), { decide: -1, spawn: 0, return: 0, aggregate: 0 });
    // the paper's `process` channel (-0.8) spread over decide, return and aggregate: -0.8 / 3 each (spawn is no step_quality anchor)
    const spread = family(ccp({ ...SEED_CHAIN, rewards: { task_success: -1, process: -0.8 } }), "step_quality");
    expectClose(spread, { decide: -0.8 / 3, spawn: 0, return: -0.8 / 3, aggregate: -0.8 / 3 });
  });
});

describe("ccp orchestration", () => {
  it("reaches 3 hops, through any event, into decisions, spawns and aggregates only", () => {
    // A: r 0.8 at d 0. M (message, d 1) and T (tool_call, d 2) receive nothing;
    // D1 at d 2: 0.8 x 0.5^2 = 0.2; S at d 3: 0.8 x 0.5^3 = 0.1; D0 and D2 at d 4: beyond reach
    expectClose(family(ccp(ORCH_REACH), "orchestration"), { D0: 0, D2: 0, S: 0.1, T: 0, D1: 0.2, M: 0, A: 0.8 });
  });

  it("sums over several anchors", () => {
    const spec: TraceSpec = {
      ...ORCH_REACH,
      events: ORCH_REACH.events.map((e) => (e.id === "S" ? { ...e, rewards: { orchestration: 0.4 } } : e)),
    };
    // S: own 0.4 + 0.1 from A; D0, D2 at 1 hop from S: 0.4 x 0.5 = 0.2
    expectClose(family(ccp(spec), "orchestration"), { D0: 0.2, D2: 0.2, S: 0.5, T: 0, D1: 0.2, M: 0, A: 0.8 });
  });

  it("shares a channel value over spawns and aggregates, then spreads it", () => {
    // R = 0.6 over S1, S2, G: 0.2 each.
    // D: 0.2 x 0.5 (from S1) + 0.2 x 0.5 (from S2) + 0.2 x 0.25 (from G, 2 hops) = 0.25
    // S1, S2: 0.2 + 0.2 x 0.5 (from G) = 0.3; G: 0.2
    expectClose(family(ccp(TWO_SPAWNS), "orchestration"), { D: 0.25, S1: 0.3, S2: 0.3, G: 0.2 });
  });
});

describe("ccp stop_decision", () => {
  it("credits the stop and the latest earlier continue of the same agent", () => {
    const spec: TraceSpec = { ...STOPS, events: STOPS.events.filter((e) => e.id !== "st2") };
    // st: 0.6; c1 (orch's latest continue before st): 0.3; cx is another agent's; c2 comes later
    expectClose(family(ccp(spec), "stop_decision"), { c0: 0, c1: 0.3, cx: 0, st: 0.6, c2: 0, g: 0 });
  });

  it("sums when two stops share a continue", () => {
    // st: 0.6, st2: 0.2; both find c1: 0.3 + 0.1
    expectClose(family(ccp(STOPS), "stop_decision"), { c0: 0, c1: 0.4, cx: 0, st: 0.6, st2: 0.2, c2: 0, g: 0 });
  });

  it("gives only the stop its value when its agent never decided to continue", () => {
    const spec: TraceSpec = {
      ...STOPS,
      events: STOPS.events.filter((e) => e.id !== "st2").map((e) => (e.id === "st" ? { ...e, agent: "lead" } : e)),
    };
    expectClose(family(ccp(spec), "stop_decision"), { c0: 0, c1: 0, cx: 0, st: 0.6, c2: 0, g: 0 });
  });

  it("anchors at the terminal when there is no stop event", () => {
    const spec: TraceSpec = {
      ...STOPS,
      events: STOPS.events.filter((e) => e.id !== "st" && e.id !== "st2"),
      edges: [["c2", "g"]],
      rewards: { stop_decision: 0.4 },
    };
    // g (terminal, agent orch): 0.4 / 1; its latest earlier continue c2: 0.2
    expectClose(family(ccp(spec), "stop_decision"), { c0: 0, c1: 0, cx: 0, c2: 0.2, g: 0.4 });
  });
});

describe("ccp normalize", () => {
  it("scales a family's credits to sum to R_f, sign kept", () => {
    const res = ccp(TWO_SPAWNS, { normalize: true });
    // credits 0.25, 0.3, 0.3, 0.2 sum to 1.05; x 0.6 / 1.05
    const k = 0.6 / 1.05;
    expectClose(family(res, "orchestration"), { D: 0.25 * k, S1: 0.3 * k, S2: 0.3 * k, G: 0.2 * k });
    expect(res.normalize).toBe(true);
    const negative = ccp(SEED_CHAIN, { normalize: true });
    // -0.343 - 0.49 - 0.7 - 1 = -2.533; scaled to sum to -1
    expectClose(family(negative, "task_success"), {
      decide: -0.343 / 2.533, spawn: -0.49 / 2.533, return: -0.7 / 2.533, aggregate: -1 / 2.533,
    });
  });

  it("leaves families without R_f or with a zero sum alone", () => {
    const spec: TraceSpec = {
      events: [
        { id: "m1", t: 0, type: "message", agent: "A", rewards: { step_quality: 0.5, orchestration: 1 } },
        { id: "m2", t: 1, type: "message", agent: "B", rewards: { step_quality: -0.5 } },
        { id: "s", t: 2, type: "spawn", agent: "O", to: "A", rewards: { orchestration: 0.3 } },
      ],
      rewards: { process: 0.9 },
    };
    const res = ccp(spec, { normalize: true });
    // step_quality: R = 0.9 but credits 0.5 - 0.5 = 0: unchanged
    expectClose(family(res, "step_quality"), { m1: 0.5, m2: -0.5, s: 0 });
    // orchestration: no R; only s is an anchor (m1's value on a message is not used)
    expectClose(family(res, "orchestration"), { m1: 0, m2: 0, s: 0.3 });
    expect(res.families.orchestration).toBeNull();
  });

  it("treats a credit sum of magnitude <= 1e-12 as 0 (float cancellation), and scales a larger one", () => {
    // step_quality event values 0.1 + 0.2 - 0.3 sum to 5.55e-17 in floating point, not 0:
    // scaling to R = 0.9 would multiply by ~1.6e16. Under the cut-off they stay as they are.
    const cancelling: TraceSpec = {
      events: [
        { id: "m1", t: 0, type: "message", agent: "A", rewards: { step_quality: 0.1 } },
        { id: "m2", t: 1, type: "message", agent: "A", rewards: { step_quality: 0.2 } },
        { id: "m3", t: 2, type: "message", agent: "A", rewards: { step_quality: -0.3 } },
      ],
      rewards: { process: 0.9 },
    };
    expect(0.1 + 0.2 - 0.3).not.toBe(0);
    expectClose(family(ccp(cancelling, { normalize: true }), "step_quality"), { m1: 0.1, m2: 0.2, m3: -0.3 });
    // a sum of 2e-12 (above the cut-off) is scaled: 1e-12 x (0.9 / 2e-12) = 0.45
    const tiny: TraceSpec = {
      events: [
        { id: "m1", t: 0, type: "message", agent: "A", rewards: { step_quality: 1e-12 } },
        { id: "m2", t: 1, type: "message", agent: "A", rewards: { step_quality: 1e-12 } },
      ],
      rewards: { process: 0.9 },
    };
    expectClose(family(ccp(tiny, { normalize: true }), "step_quality"), { m1: 0.45, m2: 0.45 });
  });
});

describe("ccp under other presets", () => {
  it("weights each family's credit", () => {
    const res = computeCredit(makeTrace(TWO_SPAWNS), { preset: BUILTIN_PRESETS.multi_source_research });
    const d = res.events.find((e) => e.id === "D")!;
    // D: no task_success value (no R, no label), not a spawn or message: only orchestration 0.25 x w 0.4
    expect(d.total).toBeCloseTo(0.25 * 0.4, 9);
    expect(res.preset).toBe("multi_source_research");
    expect(res.weights.orchestration).toBe(0.4);
  });
});
