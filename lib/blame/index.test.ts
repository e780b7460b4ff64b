import { describe, expect, it } from "vitest";
import { makeTrace } from "../graph/fixtures";
import { FAILED_TOOL, failedTool } from "./fixtures";
import { BLAME_METHODS, BlameNotApplicableError, blameInput, defaultFamilies, evaluateMethods, methodByName, pickBest, rankTrace, UnknownBlameMethodError, type LabelledTrace, type MethodEvaluation } from "./index";

const labelled = (i: number): LabelledTrace => {
  const trace = makeTrace({ ...FAILED_TOOL, trace_id: `t${i}` });
  return { input: blameInput(trace), decisive_event_id: "code1", decisive_agent: "Coder" };
};

describe("the attribution registry", () => {
  it("lists every method with whether it learns and whether it needs a group", () => {
    const names = BLAME_METHODS.map((m) => m.name);
    expect(names).toEqual(expect.arrayContaining(["neg_credit_ccp", "neg_credit_uniform", "neg_credit_terminal", "neg_credit_mc_return", "neg_credit_grpo", "neg_credit_gigpo", "first_step", "last_event", "most_active_agent", "errors", "divergence", "learned", "learned_events"]));
    expect(BLAME_METHODS.find((m) => m.name === "learned")).toMatchObject({ learned: true, needs_group: false });
    expect(BLAME_METHODS.find((m) => m.name === "neg_credit_gigpo")).toMatchObject({ learned: false, needs_group: true });
  });

  it("ranks with a heuristic directly, with a learned method only given its model, and names what is wrong", () => {
    const input = blameInput(failedTool());
    expect(rankTrace("errors", input).events[0]!.id).toBe("code1");
    expect(() => rankTrace("learned", input)).toThrow(BlameNotApplicableError);
    expect(() => rankTrace("nope", input)).toThrow(UnknownBlameMethodError);
    const method = methodByName("learned_events")!;
    if (!method.learned) throw new Error("learned_events learns");
    const model = method.train([labelled(1), labelled(2)]);
    expect(rankTrace("learned_events", input, { model }).method).toBe("learned_events");
    expect(() => rankTrace("learned", input, { model })).toThrow(BlameNotApplicableError);
  });

  it("evaluates every method (learned ones under CV) and picks the best step accuracy among methods that ranked every trace", () => {
    const evaluations = evaluateMethods([1, 2, 3, 4, 5, 6].map(labelled), { k: 3, seed: 2 });
    const errors = evaluations.find((e) => e.method === "errors")!;
    expect(errors.scores!.step.top1.value).toBe(1);
    expect(errors.scores!.agent.top1.value).toBe(1);
    expect(errors.cv).toBeNull();
    expect(evaluations.find((e) => e.method === "learned")!.cv).toEqual({ k: 3, seed: 2 });
    expect(evaluations.find((e) => e.method === "divergence")).toMatchObject({ scores: null, not_applicable: 6 });
    // neg_credit_ccp also puts code1 first, but its agents go by summed credit: the writer (-1) before the coder (-1.24 + 0.51)
    expect(evaluations.find((e) => e.method === "neg_credit_ccp")!.scores!.step.top1.value).toBe(1);
    expect(evaluations.find((e) => e.method === "neg_credit_ccp")!.scores!.agent.top1.value).toBe(0);
    expect(pickBest(evaluations)).toBe("errors");
  });

  it("pickBest breaks a tie on step accuracy by agent accuracy, and skips methods that could not rank every trace", () => {
    const level = (v: number) => ({ top1: { value: v, low: 0, high: 1, n: 2 }, top3: { value: v, low: 0, high: 1, n: 2 }, mrr: { value: v, low: 0, high: 1, n: 2 } });
    const e = (method: string, step: number, agent: number, notApplicable = 0): MethodEvaluation => ({ method, learned: false, scores: { n: 2, step: level(step), agent: level(agent) }, not_applicable: notApplicable, cv: null });
    expect(pickBest([e("a", 0.5, 0.5), e("b", 0.5, 0.6), e("c", 0.9, 0.9, 1)])).toBe("b");
    expect(pickBest([])).toBeNull();
    // the word model is scored, but never what best stands for, nor a candidate of best (nested)
    expect(pickBest([e("learned_words", 0.9, 0.9), e("learned_events", 0.5, 0.5)])).toBe("learned_events");
    expect(pickBest([e("learned_words", 0.9, 0.9)])).toBeNull();
    expect(defaultFamilies()["best (nested)"]!.map((m) => m.name)).toEqual(expect.arrayContaining(["learned_events", "learned_stumps", "errors"]));
    expect(defaultFamilies()["best (nested)"]!.map((m) => m.name)).not.toContain("learned_words");
  });
});
