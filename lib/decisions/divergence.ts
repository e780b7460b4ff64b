/**
 * Where the rollouts of a GRPO group part ways. Each rollout is the sequence
 * of its events' GiGPO keys in event order (SPEC.md section 3: role or agent;
 * type; content_ref or tool or ""). The divergence step is the first event
 * order index k at which the SET of keys the successful rollouts (E1 = 1) have
 * at k differs from the set the failed rollouts (E1 = 0) have at k; a rollout
 * with k events or fewer contributes {@link ENDED}. Sets, not multisets: a
 * group rarely holds as many successes as failures, and what matters is
 * whether some step was taken only on one side. None when the group has no
 * success or no failure, or the sets agree at every k.
 */
import { stepKey } from "../credit/group";
import type { TraceEvent } from "../trace/types";

/** The key of a rollout that has no event at this step. */
export const ENDED = "(ended)";

export interface DivergenceRollout {
  readonly trace_id: string;
  readonly e1: 0 | 1 | null;
  /** Events in event order. */
  readonly events: readonly Pick<TraceEvent, "id" | "agent" | "role" | "type" | "content_ref" | "tool">[];
}

export interface DivergenceMark {
  trace_id: string;
  side: "success" | "failure";
  /** The rollout's event at the divergence step; null when it had ended. */
  event_id: string | null;
  key: string;
  /** True when the other side has no rollout with this key at this step. */
  distinct: boolean;
}

export interface Divergence {
  /** Event order index (0-based) of the first step whose key sets differ. */
  step: number;
  /** Distinct keys at the step, sorted: on the successful side, on the failed side. */
  success_keys: string[];
  failure_keys: string[];
  /** One mark per successful or failed rollout (E1 null rollouts take no side). */
  marks: DivergenceMark[];
}

/** A GiGPO key as people read it: "role · type · ref" (the stored key joins with U+0000). */
export function readableKey(key: string): string {
  return key === ENDED ? ENDED : key.split("\u0000").filter((part, i) => i < 2 || part !== "").join(" · ");
}

const keyAt = (r: DivergenceRollout, k: number): string => (k < r.events.length ? readableKey(stepKey(r.events[k] as TraceEvent)) : ENDED);

/** The divergence of a group, or null (see the module comment). O(total events). */
export function groupDivergence(rollouts: readonly DivergenceRollout[]): Divergence | null {
  const success = rollouts.filter((r) => r.e1 === 1);
  const failure = rollouts.filter((r) => r.e1 === 0);
  if (success.length === 0 || failure.length === 0) return null;
  const longest = Math.max(...[...success, ...failure].map((r) => r.events.length));
  for (let k = 0; k < longest; k++) {
    const s = new Set(success.map((r) => keyAt(r, k)));
    const f = new Set(failure.map((r) => keyAt(r, k)));
    if (s.size === f.size && [...s].every((key) => f.has(key))) continue;
    const mark = (r: DivergenceRollout, side: DivergenceMark["side"], other: Set<string>): DivergenceMark => {
      const key = keyAt(r, k);
      return { trace_id: r.trace_id, side, event_id: r.events[k]?.id ?? null, key, distinct: !other.has(key) };
    };
    return {
      step: k,
      success_keys: [...s].sort(),
      failure_keys: [...f].sort(),
      marks: [...success.map((r) => mark(r, "success", f)), ...failure.map((r) => mark(r, "failure", s))],
    };
  }
  return null;
}
