/**
 * Resolution of reward values (SPEC.md section 2): the trace value R_f of
 * each family and the value r_f(a) at each of its anchors, each from the
 * first source that exists.
 */
import { successors } from "../graph/causal";
import { tokensOf, type TraceAnalysis } from "../metrics/analysis";
import type { TraceMetrics } from "../metrics/types";
import { FAMILIES, type Family } from "../trace/types";
import { channelValue } from "./channels";
import { anchorsOf } from "./families";
import { labelValue, type HumanLabels } from "./labels";

/** Where R_f came from: human labels and channels are explicit, the rest automatic. */
export type ValueSource = "human" | "channel" | "auto";

export interface ResolvedRewards {
  /** R_f per family; null when the family is absent (it adds nothing to R_total). */
  readonly families: Readonly<Record<Family, number | null>>;
  readonly sources: Readonly<Record<Family, ValueSource | null>>;
  /** Anchors of each family, event indices in array order. */
  readonly anchors: Readonly<Record<Family, Int32Array>>;
  /** r_f(a) per event index; NaN where the event is no anchor of f or has no value. */
  readonly values: Readonly<Record<Family, Float64Array>>;
}

/** The metrics the automatic values read. */
export type AutoValueInputs = Pick<TraceMetrics, "e2" | "e3">;

interface TraceValue {
  value: number | null;
  source: ValueSource | null;
}

/**
 * Resolves R_f and r_f(a) for all eight families. `tokenBudget` comes from
 * the preset (it scales the automatic cost value). O(V + labels).
 */
export function resolveRewards(
  a: TraceAnalysis,
  metrics: AutoValueInputs,
  labels: HumanLabels,
  tokenBudget: number,
): ResolvedRewards {
  const anchors = {} as Record<Family, Int32Array>;
  for (const f of FAMILIES) anchors[f] = anchorsOf(a.graph, f);
  const autoTool = automaticToolValues(a, anchors.tool_use_correctness);

  const families = {} as Record<Family, number | null>;
  const sources = {} as Record<Family, ValueSource | null>;
  const values = {} as Record<Family, Float64Array>;
  for (const f of FAMILIES) {
    const tv = traceValue(f, a, metrics, labels, tokenBudget, autoTool, anchors.tool_use_correctness);
    families[f] = tv.value;
    sources[f] = tv.source;
    values[f] = anchorValues(f, a, labels, anchors[f], tv, autoTool);
  }
  return { families, sources, anchors, values };
}

function traceValue(
  f: Family,
  a: TraceAnalysis,
  metrics: AutoValueInputs,
  labels: HumanLabels,
  tokenBudget: number,
  autoTool: Float64Array,
  toolAnchors: Int32Array,
): TraceValue {
  const human = labelValue(labels.trace[f]);
  // task_success labels are 0/1: 2 x mean - 1 maps failure to -1 and success to +1.
  if (human !== null) return { value: f === "task_success" ? 2 * human - 1 : human, source: "human" };
  const channel = channelValue(a.trace.rewards, f);
  if (channel !== null) return { value: channel, source: "channel" };
  const auto = automaticTraceValue(f, a, metrics, tokenBudget, autoTool, toolAnchors);
  if (auto !== null) return { value: clamp(auto), source: "auto" };
  return { value: null, source: null };
}

function automaticTraceValue(
  f: Family,
  a: TraceAnalysis,
  metrics: AutoValueInputs,
  tokenBudget: number,
  autoTool: Float64Array,
  toolAnchors: Int32Array,
): number | null {
  switch (f) {
    case "parallelism_speedup": {
      const x = metrics.e2.speedup ?? metrics.e2.step_parallelism;
      return 1 - 1 / x;
    }
    case "communication_efficiency": {
      const redundancy = metrics.e3.message_redundancy;
      return redundancy === null ? null : 1 - 2 * redundancy;
    }
    case "cost":
      return Math.min(1, a.trace.costs.tokens / tokenBudget);
    case "tool_use_correctness": {
      let sum = 0;
      let count = 0;
      for (const i of toolAnchors) {
        const v = autoTool[i]!;
        if (Number.isNaN(v)) continue;
        sum += v;
        count++;
      }
      return count === 0 ? null : sum / count;
    }
    default:
      return null;
  }
}

/**
 * The automatic anchor value of each tool_call: +1 when a direct causal
 * successor is a tool_result whose status is not `error`, -1 when there
 * are such successors and all failed, NaN when there are none.
 */
function automaticToolValues(a: TraceAnalysis, toolCalls: Int32Array): Float64Array {
  const out = new Float64Array(a.graph.n).fill(Number.NaN);
  const events = a.trace.events;
  for (const i of toolCalls) {
    let results = 0;
    let ok = false;
    for (const s of successors(a.graph, i)) {
      const e = events[s]!;
      if (e.type !== "tool_result") continue;
      results++;
      if (e.status !== "error") ok = true;
    }
    if (results > 0) out[i] = ok ? 1 : -1;
  }
  return out;
}

function anchorValues(
  f: Family,
  a: TraceAnalysis,
  labels: HumanLabels,
  anchors: Int32Array,
  tv: TraceValue,
  autoTool: Float64Array,
): Float64Array {
  const n = a.graph.n;
  const events = a.trace.events;
  const out = new Float64Array(n).fill(Number.NaN);

  // 1. Human values; annotations on events that are not anchors of f stay out of credit.
  if (labels.events.size > 0) {
    const isAnchor = new Uint8Array(n);
    for (const i of anchors) isAnchor[i] = 1;
    for (const [id, familyLabels] of labels.events) {
      const i = a.graph.indexOf.get(id);
      if (i === undefined || isAnchor[i] === 0) continue;
      const v = labelValue(familyLabels[f]);
      if (v !== null) out[i] = v;
    }
  }
  // 2. The event's own rewards[f].
  for (const i of anchors) {
    if (!Number.isNaN(out[i]!)) continue;
    const own = events[i]!.rewards?.[f];
    if (typeof own === "number") out[i] = own;
  }
  // 3-5. A share of R_f when it is explicit; the automatic tool value; a share of an automatic R_f.
  const share = shareOf(f, a, anchors, tv.value);
  for (const i of anchors) {
    if (!Number.isNaN(out[i]!)) continue;
    if (tv.source === "human" || tv.source === "channel") out[i] = share(i);
    else if (f === "tool_use_correctness") out[i] = autoTool[i]!;
    else if (tv.source === "auto") out[i] = share(i);
  }
  return out;
}

/** R_f / |A_f|, or for cost R_cost x tokens(a) / all tokens (equal shares without tokens). */
function shareOf(f: Family, a: TraceAnalysis, anchors: Int32Array, total: number | null): (i: number) => number {
  if (total === null) return () => Number.NaN;
  if (f === "cost") {
    let sum = 0;
    for (const e of a.trace.events) sum += tokensOf(e);
    if (sum > 0) return (i) => (total * tokensOf(a.trace.events[i]!)) / sum;
  }
  const each = total / anchors.length;
  return () => each;
}

function clamp(x: number): number {
  return Math.min(1, Math.max(-1, x));
}
