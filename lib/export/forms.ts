import type { ExtendedAdjudication, ExtendedAnnotation } from "../trace/extended-labels";
import type { ExtendedDecisiveErrors } from "../trace/decisive-errors";
import type { ResolvedRewards } from "../rewards/resolve";
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
 * `humanE1` is E1 when human task_success labels decided it: written as the
 * reported `metrics.task_success`, which E1 reads before reward channels, so
 * that a re-imported strict file does not hide the human verdict behind the
 * trace's own report (a tie, E1 null, cannot be written in the strict form).
 */
export function strictForm(trace: Trace, resolved: ResolvedRewards, humanE1: 0 | 1 | null): Record<string, unknown> {
  const metrics = humanE1 === null ? trace.metrics : { ...trace.metrics, task_success: humanE1 };
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
    ...(metrics !== undefined && { metrics: { ...metrics } }),
  };
}

/**
 * The extended form: the trace exactly as stored (its own rewards and
 * reported metrics untouched, unknown event properties back in place), plus
 * the current human labels: `annotations` and `adjudications`, each naming
 * its annotator. Importing it restores those labels, so E1, every reward
 * value and every credit come out the same (SPEC.md section 6). Labels are
 * sorted by unit, family and annotator, so the text does not depend on row
 * ids of the database it came from.
 */
export function extendedForm(
  trace: Trace,
  annotations: readonly ExtendedAnnotation[],
  adjudications: readonly ExtendedAdjudication[],
  hackingFlags: readonly string[] = [],
  decisive: ExtendedDecisiveErrors = { decisive_errors: [], decisive_error_adjudication: null },
): Record<string, unknown> {
  const { events, ...head } = trace;
  return {
    ...head,
    events: events.map(({ extra, ...e }) => ({ ...e, ...extra })),
    annotations: [...annotations].sort(byUnit((a) => a.annotator)),
    adjudications: [...adjudications].sort(byUnit(() => "")),
    // each annotator's "the run went wrong here" and an admin's final one (SPEC.md section 5), by annotator name
    decisive_errors: [...decisive.decisive_errors].sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0)),
    ...(decisive.decisive_error_adjudication && { decisive_error_adjudication: decisive.decisive_error_adjudication }),
    // the detectors that flag the run (docs/metrics.md "Hacking diagnostics"), so a trainer can down-weight it; recomputed on import
    hacking_flags: [...hackingFlags],
  };
}

function byUnit<T extends { event_id: string | null; family: string; updated_at: string }>(who: (x: T) => string) {
  const key = (x: T) => [x.event_id ?? "", x.family, who(x), x.updated_at];
  return (a: T, b: T) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  };
}

/** Keys whose array values are written element by element, so a big trace is never one string in memory. */
const STREAMED_KEYS = new Set(["events", "edges", "calls", "annotations", "adjudications", "decisive_errors"]);

/**
 * JSON text of a document, in chunks: exactly JSON.stringify(doc), but the
 * big arrays go out one element at a time.
 */
export function* jsonChunks(doc: Record<string, unknown>): Generator<string> {
  yield "{";
  let first = true;
  for (const [key, value] of Object.entries(doc)) {
    if (value === undefined) continue;
    const prefix = `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (!STREAMED_KEYS.has(key) || !Array.isArray(value)) {
      yield prefix + JSON.stringify(value);
      continue;
    }
    yield `${prefix}[`;
    for (let i = 0; i < value.length; i++) yield (i > 0 ? "," : "") + JSON.stringify(value[i]);
    yield "]";
  }
  yield "}";
}
