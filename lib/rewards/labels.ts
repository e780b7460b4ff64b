/**
 * Human labels as the compute core sees them (SPEC.md section 5): for each
 * unit (the trace, or one event) and family, the current value of each
 * annotator and, optionally, an admin's adjudicated value. The annotation
 * feature fills this from the database with {@link humanLabelsFrom}; the
 * core never sees annotators, comments or history.
 */
import { FAMILIES, type Family } from "../trace/types";

/** The annotations of one unit for one family. */
export interface LabelSet {
  /** Current values, one per annotator. Trace-level task_success labels are 0 or 1; all others in [-1, 1]. */
  readonly values: readonly number[];
  /** Set by an admin; replaces the mean of `values` wherever sections 2-4 use it. */
  readonly adjudicated?: number | null;
}

export type FamilyLabels = Partial<Record<Family, LabelSet>>;

export interface HumanLabels {
  /** Trace-level annotations. */
  readonly trace: FamilyLabels;
  /** Event-level annotations keyed by event id (sparse: only annotated events). */
  readonly events: ReadonlyMap<string, FamilyLabels>;
}

export const NO_LABELS: HumanLabels = Object.freeze({ trace: Object.freeze({}), events: new Map() });

/** One current annotation row (one per unit, family and annotator). */
export interface AnnotationRow {
  readonly event_id: string | null;
  readonly family: string;
  readonly value: number;
}

/** One adjudicated value (one per unit and family). */
export interface AdjudicationRow {
  readonly event_id: string | null;
  readonly family: string;
  readonly value: number;
}

const FAMILY_SET: ReadonlySet<string> = new Set(FAMILIES);

/**
 * Groups annotation and adjudication rows into {@link HumanLabels}.
 * Rows of unknown families are ignored: they cannot enter credit. Each
 * unit's values come out in ascending order, whatever order the rows came
 * in, so a mean (a floating-point sum) and every number computed from it
 * are the same for the same labels read by any statement.
 */
export function humanLabelsFrom(
  annotations: Iterable<AnnotationRow>,
  adjudications: Iterable<AdjudicationRow> = [],
): HumanLabels {
  const trace: Partial<Record<Family, { values: number[]; adjudicated?: number }>> = {};
  const events = new Map<string, Partial<Record<Family, { values: number[]; adjudicated?: number }>>>();
  const slot = (eventId: string | null, family: Family) => {
    let unit = trace;
    if (eventId !== null) {
      unit = events.get(eventId) ?? {};
      events.set(eventId, unit);
    }
    const set = unit[family] ?? { values: [] };
    unit[family] = set;
    return set;
  };
  for (const row of annotations) {
    if (FAMILY_SET.has(row.family)) slot(row.event_id, row.family as Family).values.push(row.value);
  }
  for (const row of adjudications) {
    if (FAMILY_SET.has(row.family)) slot(row.event_id, row.family as Family).adjudicated = row.value;
  }
  const ascending = (a: number, b: number) => a - b;
  for (const set of Object.values(trace)) set.values.sort(ascending);
  for (const unit of events.values()) for (const set of Object.values(unit)) set.values.sort(ascending);
  return { trace, events };
}

/**
 * The value a unit's labels stand for: the adjudicated value, else the mean
 * of the annotators' values, else null.
 */
export function labelValue(set: LabelSet | undefined): number | null {
  if (!set) return null;
  if (typeof set.adjudicated === "number") return set.adjudicated;
  if (set.values.length === 0) return null;
  let sum = 0;
  for (const v of set.values) sum += v;
  return sum / set.values.length;
}
