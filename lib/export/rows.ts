import { creditColumns, type CreditMethod, type GroupMember, type PreparedTrace } from "../credit";
import { SPEC_VERSION } from "../metrics/types";
import type { WeightPreset } from "../rewards/presets";
import { FAMILIES, type Family } from "../trace/types";

/** One JSONL row of the training export (SPEC.md section 6): one per event, in event order. */
export interface ExportRow {
  uid: string;
  group_id: string | null;
  traj_uid: string;
  step: number;
  event_id: string;
  agent: string;
  role: string | null;
  type: string;
  t: number;
  /** r_f(a) by family, with annotations applied; only families anchored at this event that have a value */
  rewards: Partial<Record<Family, number>>;
  /** C(v): CCP credit under the preset */
  credit: number;
  /** the chosen method's value for this event */
  advantage: number;
  method: CreditMethod;
  preset: string;
  version: typeof SPEC_VERSION;
  /** ISO time of the newest annotation used, null when none */
  annotations_as_of: string | null;
  /** the event's tokens, null when it has none */
  tokens: number | null;
  /** with `content=1` only: the event's text, null when it has none */
  content?: string | null;
  /** the trace's flagged hacking detectors (docs/metrics.md), the same on every row of a trace; [] when none */
  hacking_flags: string[];
  /** true on the trace's decisive event (adjudicated, else most named: SPEC.md section 6), false elsewhere; null when the trace has none */
  decisive_error: boolean | null;
}

export interface ExportOptions {
  method: CreditMethod;
  preset: WeightPreset;
  normalize: boolean;
  group?: readonly GroupMember[];
  annotationsAsOf: string | null;
  /** add each event's text (`content=1`) */
  content?: boolean;
  /** the trace's flagged hacking detectors */
  hackingFlags?: readonly string[];
  /** the trace's decisive event, null (or absent) when it has none */
  decisiveEvent?: string | null;
}

/** The rows of one trace, one at a time (a big trace's rows are never all in memory). */
export function* exportRows(p: PreparedTrace, opts: ExportOptions): Generator<ExportRow> {
  const { graph, trace } = p.analysis;
  const values = p.rewards(opts.preset.token_budget).values;
  const ccp = creditColumns(p, { method: "ccp", preset: opts.preset, normalize: opts.normalize });
  const chosen = opts.method === "ccp" ? ccp : creditColumns(p, { method: opts.method, preset: opts.preset, normalize: opts.normalize, group: opts.group });
  const decisive = opts.decisiveEvent ?? null;
  for (let step = 0; step < graph.n; step++) {
    const i = graph.order[step]!;
    const event = graph.events[i]!;
    const rewards: Partial<Record<Family, number>> = {};
    for (const f of FAMILIES) {
      const v = values[f][i]!;
      if (!Number.isNaN(v)) rewards[f] = v;
    }
    yield {
      uid: trace.task_id,
      group_id: trace.group_id ?? null,
      traj_uid: trace.trace_id,
      step,
      event_id: event.id,
      agent: event.agent,
      role: event.role ?? null,
      type: event.type,
      t: event.t,
      rewards,
      credit: ccp.total[i]!,
      advantage: chosen.total[i]!,
      method: opts.method,
      preset: opts.preset.name,
      version: SPEC_VERSION,
      annotations_as_of: opts.annotationsAsOf,
      tokens: event.tokens ?? null,
      ...(opts.content && { content: event.content ?? null }),
      hacking_flags: [...(opts.hackingFlags ?? [])],
      decisive_error: decisive === null ? null : event.id === decisive,
    };
  }
}
