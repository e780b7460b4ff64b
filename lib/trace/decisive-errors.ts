import { z } from "zod";
import { MAX_ID_LENGTH } from "./limits";
import type { Problem } from "./validate";

/**
 * The decisive error of a trace (SPEC.md section 5) as the extended form
 * carries it (section 6): each annotator's current value, and an admin's
 * adjudicated one. A dataset's own ground truth (Who&When's mistake step)
 * arrives the same way, under the dataset's name as annotator.
 *
 *   "decisive_errors": [{"event_id", "agent", "reason", "annotator", "updated_at"?}],
 *   "decisive_error_adjudication": {"event_id", "agent", "reason", "adjudicator", "updated_at"?}
 */

const name = z.string().min(1).max(MAX_ID_LENGTH);
const isoTime = z.iso.datetime({ offset: true });
const reason = z.string().max(10_000).nullable();

export const extendedDecisiveErrorSchema = z.strictObject({
  event_id: name,
  /** the agent the annotator blames: the event's own agent, or another one (a ground truth may name the addressee of an instruction) */
  agent: name,
  reason,
  annotator: name,
  /** kept as exported; absent means the time of import */
  updated_at: isoTime.optional(),
});

export const extendedDecisiveAdjudicationSchema = z.strictObject({
  event_id: name,
  agent: name,
  reason,
  adjudicator: name.nullable(),
  updated_at: isoTime.optional(),
});

export type ExtendedDecisiveError = z.infer<typeof extendedDecisiveErrorSchema>;
export type ExtendedDecisiveAdjudication = z.infer<typeof extendedDecisiveAdjudicationSchema>;

export interface ExtendedDecisiveErrors {
  decisive_errors: ExtendedDecisiveError[];
  decisive_error_adjudication: ExtendedDecisiveAdjudication | null;
}

/** Rules that need the events: the named event exists; one current value per annotator. */
export function decisiveErrorProblems(labels: ExtendedDecisiveErrors, eventIds: ReadonlySet<string>, base: string): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  labels.decisive_errors.forEach((d, i) => {
    const path = `${base}.decisive_errors[${i}]`;
    if (!eventIds.has(d.event_id)) problems.push({ path: `${path}.event_id`, message: `no event has id "${d.event_id}"` });
    const first = seen.get(d.annotator);
    if (first !== undefined) problems.push({ path: `${path}.annotator`, message: `a second decisive error by "${d.annotator}" (first at decisive_errors[${first}]): one per trace and annotator` });
    else seen.set(d.annotator, i);
  });
  const adj = labels.decisive_error_adjudication;
  if (adj && !eventIds.has(adj.event_id)) problems.push({ path: `${base}.decisive_error_adjudication.event_id`, message: `no event has id "${adj.event_id}"` });
  return problems;
}

/** One current value of a decisive-error label, as the compute and export layers see it. */
export interface DecisiveErrorLabel {
  event_id: string;
  agent: string;
  annotator: string;
}

/**
 * The trace's decisive event (SPEC.md section 6, `decisive_error` on rows):
 * the adjudicated one, else the event most annotators name (ties: the
 * earliest named, by the order given, which callers keep stable); null
 * when nobody named one.
 */
export function decisiveEventOf(labels: readonly DecisiveErrorLabel[], adjudicated: { event_id: string } | null): string | null {
  if (adjudicated) return adjudicated.event_id;
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l.event_id, (counts.get(l.event_id) ?? 0) + 1);
  let best: string | null = null;
  // Map keeps first-insertion order: on a tie the event named first stays
  for (const [event, n] of counts) if (best === null || n > counts.get(best)!) best = event;
  return best;
}
