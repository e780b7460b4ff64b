/**
 * How a person reads a step: one number for an event everywhere it is shown
 * (event table, label view, guided questions, ground truth). A dataset that
 * numbers its own steps (Who&When's history index, kept in each event's
 * `step`) is read in its numbers; other traces in event order from 1.
 *
 * A dataset step may have become several events (a `spawn` inserted before
 * the first message to a worker, a final answer before the stop decision):
 * the step's last event is the one a label points at and the one a guided
 * search asks about, so a step is asked about once.
 */

/** The dataset's own step of an event (its `step`, a whole number >= 0), else null. */
export function datasetStep(extra: unknown): number | null {
  const step = extra !== null && typeof extra === "object" ? (extra as { step?: unknown }).step : undefined;
  return typeof step === "number" && Number.isInteger(step) && step >= 0 ? step : null;
}

/** The number a person reads for the event at event order index `seq`. */
export function stepNumber(seq: number, step: number | null | undefined): number {
  return step ?? seq + 1;
}

/**
 * The events a guided search asks about, as event order indices: the last
 * event of each dataset step, or every event when the trace has no steps of
 * its own (`steps[i]`: event i's dataset step, null when it has none).
 */
export function askedEvents(steps: readonly (number | null | undefined)[]): number[] {
  const numbered = steps.length > 0 && steps.every((s) => s !== null && s !== undefined);
  if (!numbered) return steps.map((_, i) => i);
  const asked: number[] = [];
  steps.forEach((s, i) => {
    if (i === steps.length - 1 || steps[i + 1] !== s) asked.push(i);
  });
  return asked;
}
