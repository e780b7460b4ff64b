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

const keyOf = (settings: string, examples: readonly LabelledTrace[]) => `${settings}|${examples.map(idOf).join(",")}`;

/** The model `train` gives for `settings` on `examples`: trained once per cache scope. */
export function sharedTraining<M>(settings: string, examples: readonly LabelledTrace[], train: () => M): M {
  if (!cache) return train();
  const key = keyOf(settings, examples);
  if (cache.has(key)) return cache.get(key) as M;
  const model = train();
  cache.set(key, model);
  return model;
}

/** Whether trainings are shared here (inside withTrainingCache). */
export const sharingTrainings = () => cache !== null;

/** The model already trained for `settings` on `examples` in this scope, if any. */
export function sharedModel<M>(settings: string, examples: readonly LabelledTrace[]): M | undefined {
  return cache?.get(keyOf(settings, examples)) as M | undefined;
}

/**
 * Keeps a model trained ahead (several trained together, see trainLogitBatch) for the
 * sharedTraining that will ask for it; it must be what `train` would give there.
 */
export function shareModel<M>(settings: string, examples: readonly LabelledTrace[], model: M): void {
  cache?.set(keyOf(settings, examples), model);
}
