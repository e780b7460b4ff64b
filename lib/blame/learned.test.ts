import { describe, expect, it } from "vitest";
import { learnedCombined } from "./combined";
import { stumpProbabilities } from "./boosted";
import { crossValidatedRankings, kFolds, rankUnderCv } from "./cv";
import { learnedMix } from "./ensemble";
import { evaluateMethod } from "./evaluate";
import { codeFailureRun } from "./fixtures";
import { eventProbabilities, learnedEvents, trainEventModel } from "./learned";

/** Runs in which the failing code turn is always decisive, at a varying position; the final answer's agent alternates. */
const run = (i: number) => codeFailureRun(i, "bad", i % 2 ? "writer" : "checker");

const runs = Array.from({ length: 12 }, (_, i) => run(i));

describe("the learned event model", () => {
  it("learns to put the planted culprit first on runs it did not see, and records what it was trained on", () => {
    const rankings = crossValidatedRankings(learnedEvents, runs, { k: 4, seed: 3 });
    for (const r of rankings) {
      expect(r.events[0]!.id).toBe("bad");
      expect(r.agents[0]!.agent).toBe("coder");
    }
    const model = learnedEvents.train(runs.slice(0, 9));
    expect(model.trained_on).toBe(9);
  });

  it("near miss: the failure's own result and the earlier good code turn rank below the culprit", () => {
    const model = learnedEvents.train(runs.slice(0, 8));
    const r = learnedEvents.rank(model, run(11).input);
    const rankOf = (id: string) => r.events.find((e) => e.id === id)!.rank;
    expect(rankOf("bad")).toBe(1);
    expect(rankOf("fail")).toBeGreaterThan(1);
    expect(rankOf("ok0")).toBeGreaterThan(1);
    expect(r.events[0]!.signals).toHaveProperty("caused_error");
  });

  it("is plain JSON: a stored and reloaded model ranks the same", () => {
    const model = trainEventModel(runs, "learned_events");
    const reloaded = JSON.parse(JSON.stringify(model)) as typeof model;
    expect(learnedEvents.rank(reloaded, run(5).input)).toEqual(learnedEvents.rank(model, run(5).input));
    const combined = learnedCombined.train(runs);
    expect(learnedCombined.rank(JSON.parse(JSON.stringify(combined)) as typeof combined, run(5).input)).toEqual(learnedCombined.rank(combined, run(5).input));
  });

  it("is deterministic: the same examples give the same weights", () => {
    expect(trainEventModel(runs)).toEqual(trainEventModel(runs));
  });
});

describe("learned_mix", () => {
  it("scores each event by the mean of the two models' probabilities (they sum to 1), and puts the culprit first on unseen runs", () => {
    const model = learnedMix.train(runs.slice(0, 8));
    expect(model.trained_on).toBe(8);
    const input = run(11).input;
    const r = learnedMix.rank(model, input);
    const a = eventProbabilities(model.events, input).p;
    const b = stumpProbabilities(model.stumps, input);
    const ids = ["task", "ok0", "ok1", "ok2", "bad", "fail", "end"];
    for (const e of r.events) expect(e.score).toBeCloseTo((a[ids.indexOf(e.id)]! + b[ids.indexOf(e.id)]!) / 2, 12);
    expect(r.events.reduce((sum, e) => sum + e.score, 0)).toBeCloseTo(1, 12);
    expect(r.events[0]!.id).toBe("bad");
    expect(learnedMix.rank(JSON.parse(JSON.stringify(model)) as typeof model, input)).toEqual(r);
  });
});

describe("cross-validation by trace", () => {
  it("repeated: each repeat deals other folds and the scores pool every repeat's rankings", () => {
    // a few runs labelled otherwise, so that what a fold learns depends on which runs it holds
    const noisy = runs.map((t, i) => (i % 3 === 0 ? { ...t, decisive_event_id: "end", decisive_agent: i % 2 ? "writer" : "checker" } : t));
    const once = [1, 2, 3].map((seed) => evaluateMethod(learnedEvents, noisy, { k: 4, seed }).scores!.step.top1.value);
    expect(new Set(once).size).toBeGreaterThan(1);
    const pooled = evaluateMethod(learnedEvents, noisy, { k: 4, seed: 1, repeats: 3 });
    expect(pooled.scores!.step.top1.value).toBeCloseTo((once[0]! + once[1]! + once[2]!) / 3, 12);
    expect(pooled.not_applicable).toBe(0);
  });

  it("deals every trace into exactly one of k folds of near-equal size, the same for a seed", () => {
    const folds = kFolds(23, 5, 9);
    const sizes = [0, 1, 2, 3, 4].map((f) => folds.filter((x) => x === f).length);
    expect(sizes.sort()).toEqual([4, 4, 5, 5, 5]);
    expect(kFolds(23, 5, 9)).toEqual(folds);
    expect(kFolds(23, 5, 10)).not.toEqual(folds);
  });

  it("never uses a trace's own label to rank it: changing that label leaves its CV ranking unchanged", () => {
    for (const index of [0, 5, 11]) {
      const before = rankUnderCv(learnedEvents, runs, index, { k: 4, seed: 3 });
      const relabelled = runs.map((t, i) => (i === index ? { ...t, decisive_event_id: "end", decisive_agent: "writer" } : t));
      expect(rankUnderCv(learnedEvents, relabelled, index, { k: 4, seed: 3 })).toEqual(before);
      expect(crossValidatedRankings(learnedEvents, relabelled, { k: 4, seed: 3 })[index]).toEqual(before);
      // and another trace's label does change the model that ranks it
      const other = runs.map((t, i) => (i === (index + 1) % runs.length || i === (index + 2) % runs.length ? { ...t, decisive_event_id: "end", decisive_agent: "writer" } : t));
      const folds = kFolds(runs.length, 4, 3);
      if (folds[(index + 1) % runs.length] !== folds[index]) expect(rankUnderCv(learnedEvents, other, index, { k: 4, seed: 3 })).not.toEqual(before);
    }
  });
});
