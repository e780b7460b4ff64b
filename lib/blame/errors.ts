/**
 * Error-aware methods: what the trace itself says went wrong.
 * - `errors`: events with `status: "error"` and, above them, the step that
 *   caused each (its causal predecessor that is not an error: the tool call
 *   or code turn behind a failed tool result); earlier errors weigh more.
 * - `divergence`: the failed rollout's event at the first step where the
 *   group's successful and failed rollouts part ways (lib/decisions).
 */
import { prepareTrace } from "../credit/prepare";
import { groupDivergence, type DivergenceRollout } from "../decisions/divergence";
import { computeE1 } from "../metrics/e1";
import { NO_LABELS } from "../rewards/labels";
import type { Trace } from "../trace/types";
import { contextOf } from "./input";
import { toRanking } from "./rank";
import { BlameNotApplicableError, type BlameInput, type BlameRanking } from "./types";

export const isError = (status: string | undefined) => status === "error";

/** Per event (event order): 1 when it failed, and the event order index of the step that caused it (-1 when none). */
export function errorCauses(input: BlameInput): { failed: Uint8Array; cause: Int32Array } {
  const { prepared, ordered } = contextOf(input);
  const g = prepared.analysis.graph;
  const failed = Uint8Array.from(ordered, (e) => (isError(e.status) ? 1 : 0));
  const cause = new Int32Array(ordered.length).fill(-1);
  ordered.forEach((_, k) => {
    if (!failed[k]) return;
    const v = g.order[k]!;
    let best = -1;
    for (let p = g.predStart[v]!; p < g.predStart[v + 1]!; p++) {
      const kp = g.rank[g.pred[p]!]!;
      if (!failed[kp] && kp > best) best = kp;
    }
    cause[k] = best;
  });
  return { failed, cause };
}

export function rankErrors(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  const { failed, cause } = errorCauses(input);
  const score = new Float64Array(ordered.length);
  const caused = new Float64Array(ordered.length);
  let nth = 0;
  ordered.forEach((_, k) => {
    if (!failed[k]) return;
    const weight = 1 / (1 + nth++);
    score[k] = Math.max(score[k]!, 0.5 * weight);
    if (cause[k]! >= 0) {
      score[cause[k]!] = Math.max(score[cause[k]!]!, 2 * weight);
      caused[cause[k]!] = 1;
    }
  });
  const scored = ordered.map((event, k) => ({ event, score: score[k]!, signals: { status_error: failed[k]!, caused_error: caused[k]! } }));
  return toRanking("errors", scored, "max");
}

function rollout(trace: Trace): DivergenceRollout {
  const g = prepareTrace(trace).analysis.graph;
  return { trace_id: trace.trace_id, e1: computeE1(trace, NO_LABELS), events: Array.from(g.order, (i) => g.events[i]!) };
}

export function rankDivergence(input: BlameInput): BlameRanking {
  if (input.group.length === 0) throw new BlameNotApplicableError("divergence", "the trace has no group of rollouts");
  const { ordered } = contextOf(input);
  const divergence = groupDivergence([{ trace_id: input.trace.trace_id, e1: computeE1(input.trace, NO_LABELS), events: ordered }, ...input.group.map(rollout)]);
  const mark = divergence?.marks.find((m) => m.trace_id === input.trace.trace_id && m.side === "failure");
  const scored = ordered.map((event) => {
    const at = mark !== undefined && mark.event_id === event.id ? 1 : 0;
    return { event, score: at, signals: { divergence_step: at } };
  });
  return toRanking("divergence", scored, "max");
}
