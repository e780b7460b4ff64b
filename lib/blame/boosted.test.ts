import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { ascendingOrder, learnedStumps, stumpScore, trainStumps } from "./boosted";
import { crossValidatedRankings } from "./cv";
import { FAILED_TOOL } from "./fixtures";
import { blameInput } from "./input";
import { learnedEvents } from "./learned";
import type { LabelledTrace } from "./types";

const PERMUTATIONS = [
  ["short", "mid", "long"],
  ["short", "long", "mid"],
  ["mid", "short", "long"],
  ["mid", "long", "short"],
  ["long", "short", "mid"],
  ["long", "mid", "short"],
] as const;
const CONTENT = { short: "Found it.", mid: `Read the page: ${"the figures are here ".repeat(12)}`, long: `Full page text: ${"row of the table ".repeat(600)}` };

/**
 * Three one-line worker replies in every order: a short one, a long one and
 * one of middling length, which is always the culprit. Position says
 * nothing, and length picks the culprit only as "neither short nor long":
 * a score linear in the length cannot put the middle one first, two stumps
 * on the length can.
 */
function run(i: number): LabelledTrace {
  const order = PERMUTATIONS[i % PERMUTATIONS.length]!;
  const events = [
    { id: "task", t: 0, type: "message" as const, agent: "human", role: "user", content: "Find the figure." },
    ...order.map((kind, j) => ({ id: kind, t: 1 + j, type: "return" as const, agent: "surfer", role: "worker", content: CONTENT[kind] })),
    { id: "end", t: 4, type: "aggregate" as const, agent: "lead", role: "orchestrator", content: "The figure is 7." },
  ];
  const ids = events.map((e) => e.id);
  const edges = ids.slice(1).map((id, j) => [ids[j]!, id] as [string, string]);
  return { input: blameInput(makeTrace({ ...FAILED_TOOL, trace_id: `run-${i}`, events, edges })), decisive_event_id: "mid", decisive_agent: "surfer" };
}

const runs = Array.from({ length: 18 }, (_, i) => run(i));

describe("the boosted stumps", () => {
  it("put the planted culprit first on runs they did not see, where only a middle range of one feature marks it", () => {
    for (const r of crossValidatedRankings(learnedStumps, runs, { k: 3, seed: 1 })) {
      expect(r.events[0]!.id).toBe("mid");
      expect(r.agents[0]!.agent).toBe("surfer");
      expect(r.events[0]!.signals).toHaveProperty("text_length");
    }
  });

  it("near miss: the linear event logit on the same features cannot, on some of these runs", () => {
    const linear = crossValidatedRankings(learnedEvents, runs, { k: 3, seed: 1 });
    expect(linear.filter((r) => r.events[0]!.id !== "mid").length).toBeGreaterThan(0);
  });

  it("are deterministic plain JSON: trained twice alike, and a stored and reloaded model ranks the same", () => {
    const model = trainStumps(runs);
    expect(trainStumps(runs)).toEqual(model);
    expect(model.trained_on).toBe(18);
    expect(model.stumps.length).toBeGreaterThan(0);
    const reloaded = JSON.parse(JSON.stringify(model)) as typeof model;
    expect(learnedStumps.rank(reloaded, run(4).input)).toEqual(learnedStumps.rank(model, run(4).input));
  });

  it("score an event as the sum of the leaves it falls in, an absent feature counting as 0", () => {
    const stumps = [
      { feature: "a", threshold: 0.5, low: -1, high: 2 },
      { feature: "b", threshold: -0.5, low: 0.25, high: -0.75 },
    ];
    expect(stumpScore(stumps, { a: 1 })).toBe(2 - 0.75);
    expect(stumpScore(stumps, { a: 0.5, b: -1 })).toBe(-1 + 0.25);
  });
});

describe("ascendingOrder", () => {
  it("is the order of a comparator sort by value, ties by row (few distinct values, signed zeros, infinities; fast-check)", () => {
    const value = fc.oneof(fc.constantFrom(0, -0, 1, 0.5, -2, Infinity, -Infinity), fc.double({ noNaN: true }));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), (values) => {
        const c = Float64Array.from(values);
        const expected = Int32Array.from(c.keys()).sort((a, b) => c[a]! - c[b]! || a - b);
        expect([...ascendingOrder(c)]).toEqual([...expected]);
      }),
    );
  });

  it("sorts by hand: [0.5, 0, 1, 0, -1] is rows 4, 1, 3, 0, 2", () => {
    expect([...ascendingOrder(Float64Array.from([0.5, 0, 1, 0, -1]))]).toEqual([4, 1, 3, 0, 2]);
  });
});
