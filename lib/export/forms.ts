import type { ResolvedRewards } from "../rewards/resolve";
import { labelValue, type HumanLabels } from "../rewards/labels";
import { FAMILIES, type Trace } from "../trace/types";

/** The paper's event fields: everything else is an extension, dropped in the strict form. */
const PAPER_EVENT_FIELDS = ["id", "t", "type", "agent", "role", "from", "to", "tool", "content_ref", "trusted"] as const;

/** Trace-level reward channels with the human (annotation-derived) R_f written in under each family's own name. */
function rewardsWithLabels(trace: Trace, resolved: ResolvedRewards): Record<string, number> {
  const rewards = { ...trace.rewards };
  for (const f of FAMILIES) {
    const value = resolved.families[f];
    if (resolved.sources[f] === "human" && value !== null) rewards[f] = value;
  }
  return rewards;
}

/**
 * The trace in the paper's strict schema (SPEC.md section 6): only the
 * paper's fields, annotation-derived `rewards`, extensions dropped.
 */
export function strictForm(trace: Trace, resolved: ResolvedRewards): Record<string, unknown> {
  return {
    trace_id: trace.trace_id,
    task_id: trace.task_id,
    ...(trace.system !== undefined && { system: trace.system }),
    ...(trace.topology !== undefined && { topology: trace.topology }),
    events: trace.events.map((e) => {
      const out: Record<string, unknown> = {};
      for (const key of PAPER_EVENT_FIELDS) if (e[key] !== undefined) out[key] = e[key];
      return out;
    }),
    edges: trace.edges.map((e) => ({ ...e })),
    rewards: rewardsWithLabels(trace, resolved),
    costs: { ...trace.costs },
    ...(trace.metrics !== undefined && { metrics: { ...trace.metrics } }),
  };
}

export interface ExportedAnnotation {
  event_id: string | null;
  family: string;
  value: number;
  comment: string | null;
  annotator: string;
  updated_at: string;
}

/**
 * The extended form: everything kept, annotations included, and importable
 * again: human event values are written into each event's `rewards` and
 * human trace values into the trace's `rewards`, so that a re-import gives
 * the same credit; the raw annotations go to `metadata.annotations`.
 */
export function extendedForm(trace: Trace, resolved: ResolvedRewards, labels: HumanLabels, annotations: readonly ExportedAnnotation[]): Record<string, unknown> {
  return {
    ...trace,
    metadata: { ...(trace.metadata as Record<string, unknown>), ...(annotations.length > 0 && { annotations }) },
    events: trace.events.map(({ extra, ...e }) => {
      const human = labels.events.get(e.id);
      const rewards = { ...e.rewards };
      if (human) {
        for (const f of FAMILIES) {
          const value = labelValue(human[f]);
          if (value !== null) rewards[f] = value;
        }
      }
      return { ...e, ...(Object.keys(rewards).length > 0 && { rewards }), ...extra };
    }),
    rewards: rewardsWithLabels(trace, resolved),
  };
}
