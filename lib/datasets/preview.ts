import { counted } from "../format";
import type { DatasetForm } from "./request";

/**
 * What a snapshot of a filter will hold, from a few counts over the
 * matching traces (`POST /api/datasets/preview`), before anything is built.
 * The build (lib/server/datasets/build.ts) skips a trace for one reason:
 *
 * - `no_group`: the credit method compares a trace with its group (`grpo`,
 *   `gigpo`) and the trace has no group_id, or no other trace shares it
 *   (checked first: such a trace is skipped whatever the form);
 * - `without_calls`: the form is made of model calls (`transitions` and the
 *   trainers' forms) and the trace has none.
 *
 * `strict` and `extended` give one row per trace and skip none; `rows`
 * gives one row per event; `transitions`, `verl`, `verl_agent` and `skyrl`
 * one per model call; `rllm` and `agent_lightning` one per trace (an
 * episode, a rollout).
 */
export interface SelectionCounts {
  /** traces the filter matches (within the projects the caller may snapshot) */
  traces: number;
  /** of them, those without a group of at least 2 traces sharing their group_id */
  ungrouped: number;
  /** of the grouped ones, those without model calls */
  grouped_without_calls: number;
  /** of all, those without model calls */
  without_calls: number;
  /** model calls of all traces / of the grouped ones */
  calls: number;
  grouped_calls: number;
  /** events of all traces / of the grouped ones */
  events: number;
  grouped_events: number;
  /** of all, the replays and forks of interventions (docs/replay.md) */
  replays: number;
}

export interface DatasetPreview {
  /** traces the filter matches */
  traces: number;
  /** traces that will give rows */
  traces_kept: number;
  /** rows the snapshot will hold */
  rows: number;
  /** what each row is: a model call, an event, a trace */
  row_unit: "model call" | "event" | "trace";
  skipped: { without_calls: number; no_group: number };
  /** matching traces that are replays or forks: kept, but a fork's changed call holds the edit, not the model's reply */
  replays: number;
}

/** Credit methods that need each trace's group (SPEC.md section 3). */
export const GROUP_METHODS: readonly string[] = ["grpo", "gigpo"];

export function previewOf(c: SelectionCounts, form: DatasetForm, method: string): DatasetPreview {
  if (form === "strict" || form === "extended") return { traces: c.traces, traces_kept: c.traces, rows: c.traces, row_unit: "trace", skipped: { without_calls: 0, no_group: 0 }, replays: c.replays };
  const grouped = GROUP_METHODS.includes(method);
  const noGroup = grouped ? c.ungrouped : 0;
  if (form === "rows") {
    return { traces: c.traces, traces_kept: c.traces - noGroup, rows: grouped ? c.grouped_events : c.events, row_unit: "event", skipped: { without_calls: 0, no_group: noGroup }, replays: c.replays };
  }
  const withoutCalls = grouped ? c.grouped_without_calls : c.without_calls;
  // rLLM's episodes and Agent Lightning's rollouts: one row per trace that has model calls
  if (form === "rllm" || form === "agent_lightning") {
    const kept = c.traces - noGroup - withoutCalls;
    return { traces: c.traces, traces_kept: kept, rows: kept, row_unit: "trace", skipped: { without_calls: withoutCalls, no_group: noGroup }, replays: c.replays };
  }
  return {
    traces: c.traces,
    traces_kept: c.traces - noGroup - withoutCalls,
    rows: grouped ? c.grouped_calls : c.calls,
    row_unit: "model call",
    skipped: { without_calls: withoutCalls, no_group: noGroup },
    replays: c.replays,
  };
}

/** Why a preview (or, `taken`, a finished snapshot) deserves a second look, one sentence each (empty: nothing to say). */
export function snapshotWarnings(counts: { rows: number; traces: number; without_calls: number; no_group: number; replays?: number }, form: string, method: string, taken = false): string[] {
  const out: string[] = [];
  if (counts.traces === 0) {
    out.push(taken
      ? "The filter matched no traces (in the projects this snapshot may hold): the snapshot is empty."
      : "The filter matches no traces (in the projects you may snapshot): the snapshot would be empty. Check the filter: System, Task and Group match part of a name.");
  } else if (counts.rows === 0) out.push(`${taken ? "The snapshot holds" : "The snapshot would hold"} 0 rows from ${counted(counts.traces, "matching trace")}.`);
  if (counts.no_group > 0) out.push(`${counted(counts.no_group, "trace")} ${taken ? "skipped" : "would be skipped"}: ${method} compares each trace with its group, and ${counts.no_group === 1 ? "this one has" : "these have"} no group_id or no other trace in it. Choose another method (ccp, say) to keep them.`);
  const replays = counts.replays ?? 0;
  if (replays > 0) out.push(`${counted(replays, "matching trace")} ${replays === 1 ? "is a replay or a fork" : "are replays or forks"} of an intervention: a fork's changed call holds the edit, not the model's reply. Replays: "leave out replays and forks" to keep ${replays === 1 ? "it" : "them"} out of a training set.`);
  if (counts.without_calls > 0) out.push(`${counted(counts.without_calls, "trace")} ${taken ? "skipped" : "would be skipped"}: the ${form} form is made of model calls, and ${counts.without_calls === 1 ? "this trace has" : "these traces have"} none. Choose the rows form (one row per event) to keep them.`);
  return out;
}
