import type { FamilyLabels, HumanLabels, LabelSet } from "../rewards/labels";
import { FAMILIES, type Family } from "../trace/types";

/** One current judge value for a unit and family. */
export interface JudgeValueRow {
  readonly event_id: string | null;
  readonly family: string;
  readonly value: number;
}

const FAMILY_SET: ReadonlySet<string> = new Set(FAMILIES);

/**
 * Adds judge values to people's labels (SPEC.md section 5): only for a
 * (unit, family) with no human annotation and no adjudication; several
 * judges on one unit are averaged like people (each is one value of the
 * set). Humans and adjudications always win.
 */
export function withJudgeValues(human: HumanLabels, judged: Iterable<JudgeValueRow>): HumanLabels {
  const trace: Partial<Record<Family, LabelSet>> = { ...human.trace };
  const events = new Map<string, FamilyLabels>(human.events);
  const added = new Map<string, number[]>();
  for (const row of judged) {
    if (!FAMILY_SET.has(row.family)) continue;
    const family = row.family as Family;
    const unit = row.event_id === null ? human.trace : human.events.get(row.event_id);
    if (hasHuman(unit?.[family])) continue;
    const key = `${row.event_id ?? ""}\u0000${family}`;
    let values = added.get(key);
    if (!values) {
      values = [];
      added.set(key, values);
      if (row.event_id === null) trace[family] = { values };
      else events.set(row.event_id, { ...events.get(row.event_id), [family]: { values } });
    }
    values.push(row.value);
  }
  return { trace, events };
}

function hasHuman(set: LabelSet | undefined): boolean {
  return set !== undefined && (set.values.length > 0 || typeof set.adjudicated === "number");
}
