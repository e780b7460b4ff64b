import { z } from "zod";
import type { ExtendedDecisiveErrors } from "./decisive-errors";
import { MAX_ID_LENGTH } from "./limits";
import { FAMILIES } from "./types";
import type { Problem } from "./validate";

/**
 * The human labels an extended trace carries (SPEC.md section 6): current
 * annotation values and adjudications, each annotator named. Importing the
 * trace restores them, so that export -> import -> export is the identity.
 */

const name = z.string().min(1).max(MAX_ID_LENGTH);
const isoTime = z.iso.datetime({ offset: true });
const labelValue = z.number().finite().min(-1, "must be in [-1, 1]").max(1, "must be in [-1, 1]");

export const extendedAnnotationSchema = z.strictObject({
  event_id: z.string().min(1).nullable(),
  family: z.enum(FAMILIES),
  value: labelValue,
  comment: z.string().max(10_000).nullable(),
  annotator: name,
  updated_at: isoTime,
});

export const extendedAdjudicationSchema = z.strictObject({
  event_id: z.string().min(1).nullable(),
  family: z.enum(FAMILIES),
  value: labelValue,
  /** the admin who adjudicated, by name; null when unknown */
  adjudicator: name.nullable(),
  updated_at: isoTime,
});

export type ExtendedAnnotation = z.infer<typeof extendedAnnotationSchema>;
export type ExtendedAdjudication = z.infer<typeof extendedAdjudicationSchema>;

export interface ExtendedLabels extends ExtendedDecisiveErrors {
  annotations: ExtendedAnnotation[];
  adjudications: ExtendedAdjudication[];
}

/** Rules that need the events: labelled events exist, trace-level task_success is 0/1, one value per (unit, family, annotator). */
export function labelProblems(labels: ExtendedLabels, eventIds: ReadonlySet<string>, base: string): Problem[] {
  const problems: Problem[] = [];
  const check = (list: readonly { event_id: string | null; family: string; value: number }[], key: string, who: (i: number) => string) => {
    const seen = new Map<string, number>();
    list.forEach((label, i) => {
      const path = `${base}.${key}[${i}]`;
      if (label.event_id !== null && !eventIds.has(label.event_id)) problems.push({ path: `${path}.event_id`, message: `no event has id "${label.event_id}"` });
      if (label.event_id === null && label.family === "task_success" && label.value !== 0 && label.value !== 1) {
        problems.push({ path: `${path}.value`, message: "trace-level task_success labels are 0 (failure) or 1 (success)" });
      }
      const unit = JSON.stringify([label.event_id, label.family, who(i)]);
      const first = seen.get(unit);
      if (first !== undefined) problems.push({ path, message: `a second current value for the same unit and family${key === "annotations" ? " by the same annotator" : ""} (first at ${key}[${first}])` });
      else seen.set(unit, i);
    });
  };
  check(labels.annotations, "annotations", (i) => labels.annotations[i]!.annotator);
  check(labels.adjudications, "adjudications", () => "");
  return problems;
}
