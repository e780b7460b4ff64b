import { describe, expect, it } from "vitest";
import { learnedStumps } from "./boosted";
import { learnedMix } from "./ensemble";
import { codeFailureRun } from "./fixtures";
import { learnedCombined } from "./combined";
import { kFolds } from "./cv";
import { eventSettings, learnedEvents, learnedWords, prepareCandidates, prepareEventModels, trainEventModel } from "./learned";
import { attributionReport } from "./report";
import { eventsCandidate, stumpsCandidate } from "./tuned";
import { sharedModel, withTrainingCache } from "./train-cache";

const runs = Array.from({ length: 8 }, (_, i) => codeFailureRun(i, i % 3 === 0 ? "end" : "bad"));

describe("trainings shared within one report", () => {
  it("one training serves every method that trains the same model on the same runs; each keeps its own name", () => {
    const [events, twin, mix, stumps, stumpsTwin] = withTrainingCache(() => [
      learnedEvents.train(runs),
      eventsCandidate(0.1, "all").train(runs),
      learnedMix.train(runs) as unknown as { events: { named: object; method: string }; stumps: { stumps: object } },
      learnedStumps.train(runs),
      stumpsCandidate(150, 10, "all").train(runs),
    ]);
    // the very same weights (one training), under each method's own name
    expect(twin.named).toBe(events.named);
    expect(mix.events.named).toBe(events.named);
    expect(mix.events.method).toBe("learned_mix");
    expect(events.method).toBe("learned_events");
    expect(stumpsTwin.stumps).toBe(stumps.stumps);
    expect(mix.stumps.stumps).toBe(stumps.stumps);
    // other runs, or other settings: another training
    const [fewer, other] = withTrainingCache(() => [learnedEvents.train(runs.slice(1)), eventsCandidate(0.3, "all").train(runs)]);
    expect(fewer.named).not.toBe(events.named);
    expect(other.named).not.toEqual(events.named);
  });

  it("event models trained ahead together are, bit for bit, the models trained one by one", () => {
    const options = [{}, { logit: { l2: 0.3 } }, { logit: { l2: 1 } }, { features: "portable" as const }, { features: "portable" as const, logit: { l2: 1 } }, { words: true, logit: { l2: 0.02 } }];
    const alone = options.map((o) => trainEventModel(runs, "m", o));
    const batched = withTrainingCache(() => {
      prepareEventModels(runs, options.map((o) => eventSettings(o)));
      return options.map((o) => trainEventModel(runs, "m", o));
    });
    // the same weights to the last bit, in the same column order (which a ranking's sums follow)
    expect(JSON.stringify(batched)).toBe(JSON.stringify(alone));
    expect(Object.keys(batched[3]!.named)).toEqual(Object.keys(alone[3]!.named));
    expect(Object.keys(batched[3]!.named).some((n) => n.startsWith("role_"))).toBe(false);
  });

  it("a batch of 4n + 1 models, whose last pass holds one model (with words or without), gives the models trained one by one", () => {
    const plain = [{}, { logit: { l2: 0.3 } }, { logit: { l2: 1 } }, { features: "portable" as const }, { features: "portable" as const, logit: { l2: 1 } }];
    // models with words are batched apart from the others: five of them make a batch of their own
    const words = [0.02, 0.05, 0.1, 0.3, 1].map((l2) => ({ words: true, logit: { l2 } }));
    for (const options of [plain, words]) {
      const alone = options.map((o) => trainEventModel(runs, "m", o));
      const batched = withTrainingCache(() => {
        prepareEventModels(runs, options.map((o) => eventSettings(o)));
        return options.map((o) => trainEventModel(runs, "m", o));
      });
      expect(JSON.stringify(batched)).toBe(JSON.stringify(alone));
    }
  });

  it("the models of every fold trained ahead (words across the folds, learned's inner folds in each) are, bit for bit, those trained alone", () => {
    const fold = kFolds(runs.length, 3, 1);
    const parts = [...new Set(fold)].map((f) => runs.filter((_, i) => fold[i] !== f));
    const alone = parts.map((part) => [learnedWords.train(part), learnedCombined.train(part)]);
    const words = `events ${JSON.stringify(eventSettings({ words: true, logit: { l2: 0.02 } }))}`;
    const [batched, ahead] = withTrainingCache(() => {
      prepareCandidates([learnedWords, learnedCombined], runs, { k: 3, seed: 1 });
      // trained ahead, before any method asked
      const ahead = parts.map((part) => sharedModel(words, part) !== undefined);
      return [parts.map((part) => [learnedWords.train(part), learnedCombined.train(part)]), ahead];
    });
    expect(ahead).toEqual([true, true, true]);
    expect(JSON.stringify(batched)).toBe(JSON.stringify(alone));
  });

  it("outside a report nothing is kept, and the models are the same", () => {
    const a = learnedEvents.train(runs);
    const b = eventsCandidate(0.1, "all").train(runs);
    expect(b.named).not.toBe(a.named);
    expect(b.named).toEqual(a.named);
    expect(withTrainingCache(() => learnedEvents.train(runs))).toEqual(a);
  });

  it("a report's scores are those of the methods trained apart", () => {
    const input = { labelled: runs, traceIds: runs.map((r) => r.input.trace.trace_id), systems: runs.map(() => null), judged: [] };
    const report = attributionReport(input);
    expect(report.methods.find((m) => m.method === "learned_mix")!.scores).not.toBeNull();
    expect(attributionReport(input)).toEqual(report);
  });
});
