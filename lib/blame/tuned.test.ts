import { describe, expect, it } from "vitest";
import { kFolds } from "./cv";
import { evaluateMethods } from "./evaluate";
import { agentKind, isPortableFeature } from "./features";
import { codeFailureRun as run } from "./fixtures";
import { methodByName } from "./registry";
import { scoreRankings } from "./scores";
import { eventsCandidate, LEARNED_GRID, nestedCv, nestedRankings, trainTuned, rankTuned, transfer } from "./tuned";
import type { BlameMethod, HeuristicMethod, LearnedMethod } from "./methods";
import type { BlameRanking } from "./types";


const runs = Array.from({ length: 15 }, (_, i) => run(i));
const heuristics: BlameMethod[] = [methodByName("last_event")!, methodByName("errors")!];

describe("nested cross-validation", () => {
  it("keeps, in every outer fold, the candidate the inner folds score best, and scores exactly what that candidate ranks", () => {
    // errors puts the failing code turn first in every run (step 1.0), last_event the final answer (step 0)
    const [result] = nestedCv(runs, { heuristics }, { k: 5, seed: 1 });
    expect(result!.chosen).toEqual(["errors", "errors", "errors", "errors", "errors"]);
    expect(result!.scores).toEqual(evaluateMethods(runs, {}, [methodByName("errors")!])[0]!.scores);
    expect(result!.scores.step.top1.value).toBe(1);
    expect(result!.scores.agent.top1.value).toBe(1);
  });

  it("chooses on the training part only: a held-out trace's own label changes neither its ranking nor what its fold kept", () => {
    const families = { grid: [eventsCandidate(0.1, "all"), eventsCandidate(1, "portable"), ...heuristics] };
    const before = nestedRankings(runs, families, { k: 3, seed: 2 })[0]!;
    for (const index of [0, 7]) {
      const relabelled = runs.map((t, i) => (i === index ? { ...t, decisive_event_id: "end", decisive_agent: "writer" } : t));
      const after = nestedRankings(relabelled, families, { k: 3, seed: 2 })[0]!;
      expect(after.rankings[index]).toEqual(before.rankings[index]);
      const fold = kFolds(runs.length, 3, 2)[index]!;
      expect(after.chosen[fold]).toBe(before.chosen[fold]);
    }
    // with most labels moved to the final answer, last_event wins the inner folds instead
    const moved = runs.map((t, i) => (i % 5 === 0 ? t : { ...t, decisive_event_id: "end", decisive_agent: "writer" }));
    expect(nestedCv(moved, { heuristics }, { k: 5, seed: 2 })[0]!.chosen).toEqual(["last_event", "last_event", "last_event", "last_event", "last_event"]);
  }, 120_000);

  it("with systems, ranks each system's traces by the pick its own training traces score best; a system with too few takes the pick of all", () => {
    // A: the failing code turn is decisive (errors); B, larger: the final answer (last_event); C: like A but only 3 runs
    const a = Array.from({ length: 15 }, (_, i) => run(i));
    const b = Array.from({ length: 30 }, (_, i) => run(100 + i, "end"));
    const c = Array.from({ length: 3 }, (_, i) => run(200 + i));
    const union = [...a, ...b, ...c];
    const systems = [...a.map(() => "A"), ...b.map(() => "B"), ...c.map(() => "C")];
    const stepOn = (rankings: readonly BlameRanking[], system: string) =>
      scoreRankings(union.flatMap((t, i) => (systems[i] === system ? [{ ranking: rankings[i]!, decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent }] : []))).step.top1.value;
    // one pick for all: B's method, which never finds A's culprit
    const pooled = nestedRankings(union, { heuristics }, { k: 5, seed: 1 })[0]!;
    expect(pooled.chosen).toEqual(["last_event", "last_event", "last_event", "last_event", "last_event"]);
    expect(stepOn(pooled.rankings, "A")).toBe(0);
    const perSystem = nestedRankings(union, { heuristics }, { k: 5, seed: 1 }, systems)[0]!;
    expect(perSystem.chosen).toHaveLength(15);
    for (const chosen of perSystem.chosen) expect(["A: errors", "B: last_event", "C: last_event"]).toContain(chosen);
    expect(stepOn(perSystem.rankings, "A")).toBe(1);
    expect(stepOn(perSystem.rankings, "B")).toBe(1);
    expect(stepOn(perSystem.rankings, "C")).toBe(0);
  });

  it("gives nothing with fewer than 2k traces (too few for inner folds)", () => {
    expect(nestedCv(runs.slice(0, 9), { heuristics }, { k: 5 })).toEqual([]);
  });
});

describe("trained on one system, scored on another", () => {
  it("chooses on the training traces alone and scores the test traces with what it chose", () => {
    const test = Array.from({ length: 6 }, (_, i) => run(20 + i, i < 2 ? "bad" : "end"));
    const [chosenFamily] = transfer(runs, test, [], { heuristics });
    expect(chosenFamily!.chosen).toBe("errors");
    // errors is right on 2 of the 6 test runs
    expect(chosenFamily!.scores.step.top1.value).toBeCloseTo(2 / 6, 12);
    expect(chosenFamily!.scores).toEqual(scoreRankings(test.map((t) => ({ ranking: (methodByName("errors") as HeuristicMethod).rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent }))));
    // the test traces' labels play no part in the choice
    const relabelled = test.map((t) => ({ ...t, decisive_event_id: "end", decisive_agent: "writer" }));
    expect(transfer(runs, relabelled, [], { heuristics })[0]!.chosen).toBe("errors");
  });

  it("scores each learned method trained on the training traces, and a tuned model ranks like the candidate it kept", () => {
    const test = [30, 31, 32, 33].map((i) => run(i));
    const results = transfer(runs, test, [methodByName("frequent_agent") as LearnedMethod], {});
    expect(results.map((r) => r.method)).toEqual(["frequent_agent"]);
    // every training label names the coder
    expect(results[0]!.scores.agent.top1.value).toBe(1);
    const tuned = trainTuned(runs, LEARNED_GRID.slice(0, 2), { k: 3, seed: 1 });
    expect(LEARNED_GRID.slice(0, 2).map((c) => c.name)).toContain(tuned.chosen);
    const candidate = LEARNED_GRID.find((c) => c.name === tuned.chosen)!;
    expect(rankTuned(tuned, LEARNED_GRID, test[0]!.input)).toEqual(candidate.rank(candidate.train(runs), test[0]!.input));
  });
});

describe("the portable feature set", () => {
  it("names what an agent does the same way in different systems", () => {
    expect(agentKind("orchestrator", "message")).toBe("coordinator");
    expect(agentKind(undefined, "orchestrator_decision")).toBe("coordinator");
    expect(agentKind("worker", "return")).toBe("worker");
    expect(agentKind("expert", "message")).toBe("worker");
    expect(agentKind("code_executor", "tool_result")).toBe("executor");
    expect(agentKind("critic", "message")).toBe("other");
  });

  it("leaves out role and type names and absolute step bins, keeps relative position, kinds, errors and words", () => {
    for (const name of ["role_orchestrator", "type_return", "pos_steps_3_5", "pos_log_step", "run_first_return", "decision_after_reply"]) expect(isPortableFeature(name), name).toBe(false);
    for (const name of ["pos_relative", "pos_step_relative", "kind_worker", "status_error", "caused_first_error", "text_apology", "next_text_error_word", "credit_ccp", "agent_first_speaker"]) expect(isPortableFeature(name), name).toBe(true);
    const model = eventsCandidate(0.1, "portable").train(runs);
    expect(Object.keys(model.named).filter((n) => !isPortableFeature(n))).toEqual([]);
    expect(Object.keys(model.named)).toContain("kind_executor");
  });
});
