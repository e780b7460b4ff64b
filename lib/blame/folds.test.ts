import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crossValidatedRankings, foldsOf, groupFolds, kFolds, taskGroups } from "./cv";
import { codeFailureRun } from "./fixtures";
import type { LearnedMethod, LearnedModel } from "./methods";
import { rankFirstStep } from "./priors";
import { nestedRankings } from "./tuned";
import type { LabelledTrace } from "./types";

/** A run of task `task` (its task_id). */
const runOf = (i: number, task: string): LabelledTrace => {
  const r = codeFailureRun(i);
  return { ...r, input: { ...r.input, trace: { ...r.input.trace, task_id: task } } };
};

/** A method that remembers the tasks it was trained on and refuses to rank a run of one of them. */
function spy(): LearnedMethod<LearnedModel & { tasks: string[] }> & { ranked: number } {
  const m = {
    name: "spy",
    learned: true as const,
    needs_group: false,
    description: "records its training tasks",
    ranked: 0,
    train: (examples: readonly LabelledTrace[]) => ({ method: "spy", trained_on: examples.length, tasks: examples.map((e) => e.input.trace.task_id) }),
    rank: (model: LearnedModel & { tasks: string[] }, input: LabelledTrace["input"]) => {
      if (model.tasks.includes(input.trace.task_id)) throw new Error(`task ${input.trace.task_id} on both sides of a fold`);
      m.ranked++;
      return { ...rankFirstStep(input), method: "spy" };
    },
  };
  return m;
}

describe("folds by group", () => {
  it("hand-computed cases: two groups of two in two folds, one group in one fold, distinct groups as kFolds", () => {
    const two = groupFolds(["a", "a", "b", "b"], 2, 1);
    expect(two[0]).toBe(two[1]);
    expect(two[2]).toBe(two[3]);
    expect(new Set(two)).toEqual(new Set([0, 1]));
    expect([...groupFolds(["a", "a", "a"], 5, 1)]).toEqual([0, 0, 0]);
    expect(groupFolds(["a", "b", "c", "d", "e", "f", "g"], 3, 4)).toEqual(kFolds(7, 3, 4));
    expect(foldsOf(4, { k: 2, seed: 1, groups: ["a", "a", "b", "b"] })).toEqual(two);
    expect(() => foldsOf(3, { groups: ["a"] })).toThrow(/groups/);
  });

  it("property: no group is on both sides of a fold, folds are 0..min(k, groups)-1 and none is empty", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f", "g", "h"), { minLength: 1, maxLength: 40 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 1000 }), (groups, k, seed) => {
        const fold = groupFolds(groups, k, seed);
        const foldOf = new Map<string, number>();
        groups.forEach((g, i) => {
          expect(foldOf.get(g) ?? fold[i]).toBe(fold[i]);
          foldOf.set(g, fold[i]!);
        });
        const n = Math.min(k, new Set(groups).size);
        expect(new Set(fold)).toEqual(new Set(Array.from({ length: n }, (_, f) => f)));
      }),
    );
  });

  it("taskGroups: the task id, so runs of one question share a group", () => {
    expect(taskGroups([runOf(0, "q1"), runOf(1, "q2"), runOf(2, "q1")])).toEqual(["task:q1", "task:q2", "task:q1"]);
  });

  it("CV by task never ranks a run with a model trained on a run of its task", () => {
    const runs = Array.from({ length: 12 }, (_, i) => runOf(i, `q${i % 5}`));
    const m = spy();
    expect(() => crossValidatedRankings(m, runs, { k: 3, seed: 2 })).toThrow(/both sides/);
    const rankings = crossValidatedRankings(m, runs, { k: 3, seed: 2, groups: taskGroups(runs) });
    expect(rankings.every((r) => r.events.length > 0)).toBe(true);
    expect(m.ranked).toBe(12);
  });

  it("nested CV by task keeps each task on one side of the outer split and of every inner one", () => {
    const runs = Array.from({ length: 16 }, (_, i) => runOf(i, `q${i % 6}`));
    const m = spy();
    const [result] = nestedRankings(runs, { spy: [m] }, { k: 2, seed: 1, groups: taskGroups(runs) });
    expect(result!.rankings.filter(Boolean)).toHaveLength(16);
    expect(() => nestedRankings(runs, { spy: [spy()] }, { k: 2, seed: 1 })).toThrow(/both sides/);
  });
});
