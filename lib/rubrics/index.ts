import { z } from "zod";
import { FAMILIES, type Family } from "../trace/types";

/**
 * Rubrics: what -1, 0 and +1 mean for each reward family. The defaults
 * below are Baton's; a project's admins may replace any of them (stored in
 * the `rubrics` table, edited on the project's rubric page). Labeling shows
 * them beside the value keys, and a judge (SPEC.md section 9) reuses them in
 * its prompt, which is why this module is pure.
 *
 * Signs follow lib/annotate/options.ts: for cost, +1 is "wasteful" (cost is a
 * penalty, weighted negatively); for trace-level task_success the values are
 * 0 (fail) and 1 (success), described by `negative` and `positive`.
 */
export interface Rubric {
  family: Family;
  /** what -1 means (task_success on a trace: what "fail" means) */
  negative: string;
  /** what 0 means */
  neutral: string;
  /** what +1 means (task_success on a trace: what "success" means) */
  positive: string;
}

export const DEFAULT_RUBRICS: Readonly<Record<Family, Rubric>> = Object.freeze({
  task_success: {
    family: "task_success",
    negative: "The task was not done: the final answer is wrong, missing, or does not answer what was asked.",
    neutral: "(events only) The step neither helped nor hurt reaching the final answer.",
    positive: "The task was done: the final answer is correct and complete for what was asked.",
  },
  step_quality: {
    family: "step_quality",
    negative: "The message or result is wrong, misleading or off-task; later steps would be better without it.",
    neutral: "Acceptable but adds little: correct yet vague, redundant or only partly relevant.",
    positive: "Correct, relevant and clear; it moves the task forward.",
  },
  tool_use_correctness: {
    family: "tool_use_correctness",
    negative: "Wrong tool, malformed or wrong arguments, or the result was misread or ignored.",
    neutral: "A reasonable call that did not matter (duplicate, or its result was not needed).",
    positive: "The right tool with correct arguments, and its result was used correctly.",
  },
  orchestration: {
    family: "orchestration",
    negative: "Spawned, delegated or aggregated badly: wrong agent, wrong sub-task, or results lost or mixed up.",
    neutral: "Workable but not the plan an expert would choose.",
    positive: "Well decomposed: the right agents on the right sub-tasks, results combined correctly.",
  },
  parallelism_speedup: {
    family: "parallelism_speedup",
    negative: "Parallel work that slowed the run down or only duplicated effort.",
    neutral: "No real gain or loss from running in parallel.",
    positive: "Independent work ran in parallel and clearly shortened the run.",
  },
  communication_efficiency: {
    family: "communication_efficiency",
    negative: "Redundant, noisy or unread message: it repeats what is known or nobody uses it.",
    neutral: "Necessary but longer or chattier than needed.",
    positive: "Concise and necessary: exactly what the receiver needs.",
  },
  stop_decision: {
    family: "stop_decision",
    negative: "Stopped at the wrong time: too early (work missing) or far too late (wasted work).",
    neutral: "Stopped at an acceptable but not ideal moment.",
    positive: "Stopped exactly when the task was done, no earlier and no later.",
  },
  cost: {
    family: "cost",
    negative: "Cheap (−1): far fewer tokens or steps than such a step usually needs.",
    neutral: "As expected for this kind of step.",
    positive: "Wasteful (+1): many more tokens or steps than needed. Cost is a penalty: it enters credit with a negative weight.",
  },
});

/** A project's rubrics: the defaults with the project's own texts on top. */
export function mergeRubrics(overrides: Iterable<Rubric>): Record<Family, Rubric> {
  const out = { ...DEFAULT_RUBRICS } as Record<Family, Rubric>;
  for (const r of overrides) if ((FAMILIES as readonly string[]).includes(r.family)) out[r.family] = r;
  return out;
}

const text = z.string().trim().min(1, "must not be empty").max(2000);

/** Body of `PUT /api/projects/{project}/rubrics`: the families to replace (omitted ones keep their text; `reset` ones go back to the default). */
export const rubricsInput = z.strictObject({
  rubrics: z.array(z.strictObject({ family: z.enum(FAMILIES), negative: text, neutral: text, positive: text })).max(FAMILIES.length).default([]),
  reset: z.array(z.enum(FAMILIES)).default([]),
});
export type RubricsInput = z.infer<typeof rubricsInput>;
