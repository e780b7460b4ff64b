import { FAMILIES, type EventType, type Family } from "../trace/types";
import { numberAttr, textAttr, type OtlpSpan, type OtlpSpanEvent } from "./otlp-span";
import { pushTo } from "../util/group";

/**
 * `gen_ai.evaluation.result` span events (GenAI semantic conventions) as
 * event rewards. Scaling onto Baton's [-1, 1] (docs/otlp.md):
 * - `gen_ai.evaluation.score.value` in [0, 1] (the usual normalised score):
 *   2 x score - 1, so 0 -> -1, 0.5 -> 0, 1 -> +1 (as SPEC.md's 0/1 labels);
 * - a score in [-1, 0): already on Baton's scale, kept;
 * - otherwise (no score, or one on an unknown scale such as 1-5) the label
 *   decides: pass/correct/relevant/... -> +1, fail/incorrect/... -> -1;
 * - else no reward (the evaluation is still kept on the event).
 * The family is the evaluation's name when it is a family name, else the
 * one that anchors on the event: tool_use_correctness on a tool_call,
 * orchestration on a spawn, step_quality otherwise. Several evaluations of
 * one family on one event: their mean.
 */

export const EVALUATION_EVENT = "gen_ai.evaluation.result";

export interface Evaluation {
  name: string;
  score?: number;
  label?: string;
  explanation?: string;
  /** the value on Baton's scale, when one can be derived */
  reward?: number;
}

const POSITIVE = new Set(["pass", "passed", "correct", "relevant", "true", "yes", "success", "good", "faithful", "grounded"]);
const NEGATIVE = new Set(["fail", "failed", "incorrect", "not_relevant", "irrelevant", "false", "no", "failure", "bad", "hallucinated", "unfaithful"]);

export function readEvaluation(event: OtlpSpanEvent): Evaluation {
  const score = numberAttr(event.attributes, "gen_ai.evaluation.score.value");
  const label = textAttr(event.attributes, "gen_ai.evaluation.score.label");
  const explanation = textAttr(event.attributes, "gen_ai.evaluation.explanation");
  const reward = scaledReward(score, label);
  return {
    name: textAttr(event.attributes, "gen_ai.evaluation.name") ?? "evaluation",
    ...(score !== undefined ? { score } : {}),
    ...(label !== undefined ? { label } : {}),
    ...(explanation !== undefined ? { explanation } : {}),
    ...(reward !== undefined ? { reward } : {}),
  };
}

export function scaledReward(score: number | undefined, label: string | undefined): number | undefined {
  if (score !== undefined && score >= 0 && score <= 1) return 2 * score - 1;
  if (score !== undefined && score >= -1 && score < 0) return score;
  const key = label?.trim().toLowerCase().replace(/[\s-]+/g, "_");
  if (key !== undefined && POSITIVE.has(key)) return 1;
  if (key !== undefined && NEGATIVE.has(key)) return -1;
  return undefined;
}

export function familyFor(evaluation: Evaluation, anchor: EventType): Family {
  if ((FAMILIES as readonly string[]).includes(evaluation.name)) return evaluation.name as Family;
  if (anchor === "tool_call") return "tool_use_correctness";
  if (anchor === "spawn") return "orchestration";
  return "step_quality";
}

/** Mean reward per family of the evaluations that have one. */
export function rewardsFrom(evaluations: readonly Evaluation[], anchor: EventType): Partial<Record<Family, number>> {
  const sums = new Map<Family, { sum: number; n: number }>();
  for (const e of evaluations) {
    if (e.reward === undefined) continue;
    const family = familyFor(e, anchor);
    const s = sums.get(family) ?? { sum: 0, n: 0 };
    sums.set(family, { sum: s.sum + e.reward, n: s.n + 1 });
  }
  return Object.fromEntries([...sums].map(([family, s]) => [family, s.sum / s.n]));
}

/**
 * The evaluation events of a trace, each with the span it judges: the span
 * whose `gen_ai.response.id` the event names, else the span that carries it.
 */
export function evaluationsBySpan(spans: readonly OtlpSpan[]): Map<string, Evaluation[]> {
  const byResponse = new Map<string, string>();
  for (const span of spans) {
    const id = textAttr(span.attributes, "gen_ai.response.id");
    if (id !== undefined && !byResponse.has(id)) byResponse.set(id, span.spanId);
  }
  const out = new Map<string, Evaluation[]>();
  for (const span of spans) {
    for (const event of span.events) {
      if (event.name !== EVALUATION_EVENT) continue;
      const responseId = textAttr(event.attributes, "gen_ai.response.id");
      const target = (responseId !== undefined ? byResponse.get(responseId) : undefined) ?? span.spanId;
      pushTo(out, target, readEvaluation(event));
    }
  }
  return out;
}
