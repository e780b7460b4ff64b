/**
 * Trainings shared within one piece of work (an attribution report): the
 * same trainer with the same settings on the same labelled traces, in the
 * same order, gives the same model (training is deterministic), so it is
 * trained once. A report asks for many such repeats: `learned_events`, the
 * grid's `learned_events(l2=0.1,all)`, and the event halves of `learned_mix`
 * and `learned` are one training on a given set, as are `learned_stumps`,
 * its grid twin and `learned_mix`'s stumps; a nested fold's final retrain is
 * the outer CV's training. Outside `withTrainingCache` nothing is kept.
 */
import type { LabelledTrace } from "./types";

let cache: Map<string, unknown> | null = null;
const ids = new WeakMap<LabelledTrace, number>();
let nextId = 0;

const idOf = (t: LabelledTrace) => {
  let id = ids.get(t);
  if (id === undefined) ids.set(t, (id = nextId++));
  return id;
};

/** Runs `work` with trainings shared inside it (nested calls share the outer cache). */
export function withTrainingCache<T>(work: () => T): T {
  const outer = cache;
  cache ??= new Map();
  try {
    return work();
  } finally {
    cache = outer;
  }
}

/** The model `train` gives for `settings` on `examples`: trained once per cache scope. */
export function sharedTraining<M>(settings: string, examples: readonly LabelledTrace[], train: () => M): M {
  if (!cache) return train();
  const key = `${settings}|${examples.map(idOf).join(",")}`;
  if (cache.has(key)) return cache.get(key) as M;
  const model = train();
  cache.set(key, model);
  return model;
}
