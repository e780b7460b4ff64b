import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { crossValidatedRankings } from "./cv";
import { FAILED_TOOL } from "./fixtures";
import { blameInput } from "./input";
import { judgeFeatures, withJudges } from "./judge";
import { learnedEvents, learnedJudged, prepareCandidates } from "./learned";
import { suspectReasons } from "./reasons";
import { JUDGED_METHODS, METHODS, methodsFor } from "./registry";
import { attributionReport } from "./report";
import { withTrainingCache } from "./train-cache";
import { defaultFamilies, JUDGED_GRID } from "./tuned";
import type { JudgeAnswer, LabelledTrace } from "./types";

/**
 * Runs of five worker steps that look alike; the decisive one moves from run to run, so nothing in the trace tells
 * it apart. A judge (all at once) names it in five runs of six and the first step in the sixth
 * (right there once: 16 of 18 runs).
 */
const STEPS = 5;
function alike(i: number): { trace: ReturnType<typeof makeTrace>; decisive: string } {
  const events = [
    { id: "task", t: 0, type: "message" as const, agent: "human", role: "user", content: "Task." },
    ...Array.from({ length: STEPS }, (_, j) => ({ id: `s${j}`, t: 1 + j, type: "message" as const, agent: "worker", role: "worker", content: "Working on it." })),
    { id: "end", t: 1 + STEPS, type: "aggregate" as const, agent: "writer", role: "worker", content: "Done. TERMINATE" },
  ];
  const ids = events.map((e) => e.id);
  const trace = makeTrace({ ...FAILED_TOOL, trace_id: `alike-${i}`, events, edges: ids.slice(1).map((id, j) => [ids[j]!, id] as [string, string]) });
  return { trace, decisive: `s${(i * 3) % STEPS}` };
}
const answer = (event_id: string | null, mode: JudgeAnswer["mode"] = "all_at_once", questions: JudgeAnswer["questions"] = []): JudgeAnswer => ({ method: `judge:j:${mode}`, mode, event_id, questions });

function runs(judged: boolean): LabelledTrace[] {
  return Array.from({ length: 18 }, (_, i) => {
    const { trace, decisive } = alike(i);
    const input = blameInput(trace);
    return { input: judged ? withJudges(input, [answer(i % 6 === 5 ? "s0" : decisive)]) : input, decisive_event_id: decisive, decisive_agent: "worker" };
  });
}
const top1 = (rankings: { events: { id: string }[] }[], labelled: readonly LabelledTrace[]) => rankings.filter((r, i) => r.events[0]!.id === labelled[i]!.decisive_event_id).length;

describe("a judge's answers as features of the event model (learned_judged)", () => {
  it("the features: the step each mode named, the steps next to it, and the steps the questions cleared", () => {
    const input = blameInput(alike(0).trace);
    expect(judgeFeatures(input)).toBeNull();
    expect(withJudges(input, [])).toBe(input);
    const f = judgeFeatures(withJudges(input, [
      answer("s2"),
      answer("s3", "binary_search", [{ event_id: "s1", on_track: true }, { event_id: "s3", on_track: false }, { event_id: "s2", on_track: true }]),
      answer(null, "step_by_step", [{ event_id: "s0", decisive: false }, { event_id: "s1", decisive: false }]),
    ]))!;
    const of = (name: string) => f.map((x) => x[name]);
    // event order: task, s0..s4, end
    expect(of("judge_all_at_once")).toEqual([0, 0, 0, 1, 0, 0, 0]);
    expect(of("judge_binary_search")).toEqual([0, 0, 0, 0, 1, 0, 0]);
    // a step-by-step judge that named nothing adds no feature of its mode
    expect(of("judge_step_by_step")).toEqual(Array(7).fill(undefined));
    // s2 named by one of the two naming answers (neighbours s1, s3), s3 by the other (neighbours s2, s4)
    expect(of("judge_near")).toEqual([0, 0, 0.5, 0.5, 0.5, 0.5, 0]);
    // bisection: on track after s2 clears task..s2, off track after s3 clears s4 and end; step by step clears s0, s1
    expect(of("judge_cleared")).toEqual([0.5, 1, 1, 0.5, 0, 0.5, 0.5]);
  });

  it("without any judge's answer it is learned_events to the bit, and nothing is scored for it", () => {
    const plain = runs(false);
    const judged = learnedJudged.train(plain);
    const events = learnedEvents.train(plain);
    expect(judged.named).toEqual(events.named);
    expect(Object.keys(judged.named).some((n) => n.startsWith("judge_"))).toBe(false);
    expect(methodsFor(plain)).toBe(METHODS);
    expect(Object.keys(defaultFamilies(methodsFor(plain)))).toEqual(["learned_events (tuned)", "learned_stumps (tuned)", "learned (tuned)", "best (nested)"]);
    // and learned_events itself never reads the judges: the same model with them
    expect(learnedEvents.train(runs(true)).named).toEqual(events.named);
  });

  it("with them it learns how far to trust the judge: on runs it did not see, the judge's step first", () => {
    const labelled = runs(true);
    const judged = crossValidatedRankings(learnedJudged, labelled, { k: 3, seed: 1 });
    const events = crossValidatedRankings(learnedEvents, labelled, { k: 3, seed: 1 });
    // the judge is right on 16 of 18 runs (run 5's decisive step is s0 too); the model without it can only guess among five alike steps
    expect(top1(judged, labelled)).toBe(16);
    expect(top1(events, labelled)).toBeLessThanOrEqual(6);
    const model = learnedJudged.train(labelled);
    expect(model.judges).toBe(true);
    expect(model.named.judge_all_at_once).toBeGreaterThan(1);
    // the suspects panel says why, in words
    const ranking = learnedJudged.rank(model, labelled[0]!.input);
    expect(suspectReasons(ranking.events, ranking.events[0]!.id)).toContain("an LLM judge named it (whole run at once)");
    // a run no judge answered about is still ranked (on its other features)
    expect(learnedJudged.rank(model, runs(false)[0]!.input).events).toHaveLength(STEPS + 2);
  });

  it("trained in a batch (a report's way), every judged model is the one trained alone", () => {
    const labelled = runs(true);
    const alone = JUDGED_GRID.map((m) => crossValidatedRankings(m, labelled, { k: 3, seed: 2 }));
    const batched = withTrainingCache(() => {
      prepareCandidates([learnedEvents, ...JUDGED_GRID], labelled, { k: 3, seed: 2 });
      return JUDGED_GRID.map((m) => crossValidatedRankings(m, labelled, { k: 3, seed: 2 }));
    });
    expect(JSON.stringify(batched)).toBe(JSON.stringify(alone));
  });

  it("the report scores it like every learned method (CV, nested CV, its own family) only where judges answered", () => {
    const labelled = runs(true);
    const report = attributionReport({ labelled, traceIds: labelled.map((t) => t.input.trace.trace_id), systems: labelled.map(() => null), judged: [] });
    const row = report.methods.find((m) => m.method === "learned_judged")!;
    expect(row.cv).toEqual({ k: 5, seed: 1 });
    expect(row.scores!.step.top1.value).toBeGreaterThan(report.methods.find((m) => m.method === "learned_events")!.scores!.step.top1.value);
    expect(report.nested.map((r) => r.family)).toEqual(["learned_events (tuned)", "learned_stumps (tuned)", "learned (tuned)", "learned_judged (tuned)", "best (nested)"]);
    const family = report.nested.find((r) => r.family === "learned_judged (tuned)")!;
    for (const c of family.chosen) expect(JUDGED_GRID.map((m) => m.name)).toContain(c);
    expect(report.nested.find((r) => r.family === "best (nested)")!.scores.step.top1.value).toBeGreaterThan(report.nested.find((r) => r.family === "learned (tuned)")!.scores.step.top1.value);
    const plain = runs(false);
    const without = attributionReport({ labelled: plain, traceIds: plain.map((t) => t.input.trace.trace_id), systems: plain.map(() => null), judged: [] });
    expect(without.methods.map((m) => m.method)).toEqual(METHODS.map((m) => m.name));
    expect(JUDGED_METHODS.map((m) => m.name)).toEqual(["learned_judged"]);
  }, 120_000);
});
