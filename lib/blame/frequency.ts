/**
 * Learned priors that only count labels: the agent most often decisive in
 * the training traces (`frequent_agent`), and the step index most often
 * decisive (`frequent_step`; the step index of an event is the number of
 * distinct times before it, so events sharing a time share a step). They
 * memorise a dataset and are baselines, not suspects' evidence.
 */
import { contextOf } from "./input";
import type { LearnedMethod, LearnedModel } from "./methods";
import { agentKey, toRanking } from "./rank";
import type { BlameInput, LabelledTrace } from "./types";

export interface CountModel extends LearnedModel {
  /** Decisive label -> how many training traces have it. */
  readonly counts: Record<string, number>;
}

/** Step index per event (event order): distinct `t` values before the event's t. */
export function stepIndices(input: BlameInput): number[] {
  const { ordered } = contextOf(input);
  const steps: number[] = [];
  ordered.forEach((e, k) => steps.push(k === 0 ? 0 : e.t === ordered[k - 1]!.t ? steps[k - 1]! : steps[k - 1]! + 1));
  return steps;
}

function count(method: string, examples: readonly LabelledTrace[], labelOf: (t: LabelledTrace) => string | null): CountModel {
  const counts: Record<string, number> = {};
  for (const t of examples) {
    const label = labelOf(t);
    if (label !== null) counts[label] = (counts[label] ?? 0) + 1;
  }
  return { method, trained_on: examples.length, counts };
}

export const frequentAgent: LearnedMethod<CountModel> = {
  name: "frequent_agent",
  learned: true,
  needs_group: false,
  description: "the agent most often decisive in the training traces; events of an agent share its count",
  train: (examples) => count("frequent_agent", examples, (t) => agentKey(t.decisive_agent)),
  rank(model, input) {
    const scored = contextOf(input).ordered.map((event) => {
      const n = model.counts[agentKey(event.agent)] ?? 0;
      return { event, score: n, signals: { agent_label_count: n } };
    });
    return toRanking("frequent_agent", scored, "max");
  },
};

export const frequentStep: LearnedMethod<CountModel> = {
  name: "frequent_step",
  learned: true,
  needs_group: false,
  description: "the step index most often decisive in the training traces",
  train: (examples) =>
    count("frequent_step", examples, (t) => {
      const k = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
      return k < 0 ? null : String(stepIndices(t.input)[k]);
    }),
  rank(model, input) {
    const steps = stepIndices(input);
    const scored = contextOf(input).ordered.map((event, k) => {
      const n = model.counts[String(steps[k])] ?? 0;
      return { event, score: n, signals: { step_label_count: n, step_index: steps[k]! } };
    });
    return toRanking("frequent_step", scored, "max");
  },
};
