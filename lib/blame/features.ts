/**
 * Features of every event of a trace, from the trace alone (a BlameInput
 * has no labels): position, type and role, the agent's place in the run,
 * causal structure, errors, words, and every credit method that needs no
 * group. Values are scaled to about [0, 1] so that one L2 penalty fits all.
 */
import { CREDIT_METHODS } from "../credit/index";
import { EVENT_TYPES } from "../trace/types";
import { answerOrigin } from "./answer";
import { creditInEventOrder, needsGroup } from "./credit";
import { errorCauses } from "./errors";
import { contextOf } from "./input";
import { isHuman } from "./priors";
import { agentKey } from "./rank";
import { hashedNgrams, textSignals } from "./text";
import type { BlameInput } from "./types";

export interface EventFeatures {
  /** Named features (what `signals` report). */
  readonly named: Record<string, number>;
  /** Hashed n-gram buckets present in the content. */
  readonly hashed: readonly number[];
}

const REACTION_MARKERS = ["text_error_word", "text_exit_nonzero", "text_apology", "text_inability", "text_stalled", "text_hedge"] as const;

const ROLES = ["orchestrator", "worker", "expert", "code_executor", "user"] as const;

function roleFeatures(role: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of ROLES) out[`role_${r}`] = role === r ? 1 : 0;
  out.role_other = role === undefined || !(ROLES as readonly string[]).includes(role) ? 1 : 0;
  return out;
}

/**
 * What an agent does in the run, in terms that mean the same in every
 * system: a coordinator (plans, delegates, decides), a worker (does the
 * task: a worker or an expert, whatever its name), an executor (runs code
 * or tools and reports their output). Systems name roles and event types
 * differently (Magentic-One's orchestrator and workers, CaptainAgent's
 * experts and terminal); these three do not depend on the names.
 */
export function agentKind(role: string | undefined, type: string): "coordinator" | "worker" | "executor" | "other" {
  if (role === "orchestrator" || type === "orchestrator_decision" || type === "spawn") return "coordinator";
  if (role === "code_executor" || type === "tool_result") return "executor";
  if (role === "worker" || role === "expert" || role === undefined) return "worker";
  return "other";
}

/**
 * Feature families that describe a run in system-independent terms
 * (relative position, the agent's place and kind, causal structure,
 * errors, words, credit). Left out: role and type names, absolute step
 * bins and the n-th `return` of the run, which describe one system's
 * protocol and do not carry to another.
 */
const SYSTEM_SPECIFIC = /^(?:role_|type_|pos_steps_|pos_log_step$|run_(?:first|second|third)_return$|decision_after_reply$)/;

/** Whether a named feature belongs to the portable set. */
export function isPortableFeature(name: string): boolean {
  return !SYSTEM_SPECIFIC.test(name);
}

/** Named feature sets a learned model can be trained on. */
export type FeatureSet = "all" | "portable";

export function featureFilter(set: FeatureSet): (name: string) => boolean {
  return set === "portable" ? isPortableFeature : () => true;
}

/** Per-trace z-score, so credit of runs of different lengths and rewards compare (0 when constant). */
function standardize(xs: Float64Array): Float64Array {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return xs.map((x) => (sd > 1e-12 ? (x - mean) / sd : 0));
}

/** Features of each event, in event order. O(V + E + content). */
export function eventFeatures(input: BlameInput): EventFeatures[] {
  const { prepared, ordered } = contextOf(input);
  const g = prepared.analysis.graph;
  const n = ordered.length;
  const { failed, cause } = errorCauses(input);
  const firstError = failed.indexOf(1);
  // which events caused an error (a lookup per event: a scan of `cause` for each would be quadratic)
  const causedError = new Uint8Array(n);
  for (const c of cause) if (c >= 0) causedError[c] = 1;
  const answer = answerOrigin(input);
  let beforeOrigin = -1;
  for (let k = answer.origin - 1; k >= 0 && beforeOrigin < 0; k--) if (!isHuman(ordered[k]!)) beforeOrigin = k;
  const credits = CREDIT_METHODS.filter((m) => !needsGroup(m) && m !== "uniform").map((m) => [m, standardize(creditInEventOrder(input, m))] as const);

  const suspects = ordered.filter((e) => !isHuman(e)).length;
  const counts = new Map<string, number>();
  const appearance = new Map<string, number>();
  for (const e of ordered) {
    if (isHuman(e)) continue;
    const key = agentKey(e.agent);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (!appearance.has(key)) appearance.set(key, appearance.size);
  }
  const seen = new Map<string, number>();
  let returns = 0;
  let j = 0;
  const kindSeen = new Map<string, number>();
  let lastSuspect = -1;
  ordered.forEach((e, k) => {
    if (!isHuman(e)) lastSuspect = k;
  });

  return ordered.map((e, k) => {
    const v = g.order[k]!;
    const human = isHuman(e);
    const key = agentKey(e.agent);
    const before = seen.get(key) ?? 0;
    seen.set(key, before + 1);
    const jj = human ? -1 : j++;
    const returnIndex = e.type === "return" ? returns++ : -1;
    const fanIn = g.predStart[v + 1]! - g.predStart[v]!;
    const fanOut = g.succStart[v + 1]! - g.succStart[v]!;
    let nextFails = 0;
    for (let s = g.succStart[v]!; s < g.succStart[v + 1]!; s++) if (failed[g.rank[g.succ[s]!]!]) nextFails = 1;
    const dist = prepared.analysis.terminalDist[v]!;
    const kind = human ? "human" : agentKind(e.role, e.type);
    const kindBefore = human ? 0 : (kindSeen.get(kind) ?? 0);
    if (!human) kindSeen.set(kind, kindBefore + 1);
    const named: Record<string, number> = {
      human: human ? 1 : 0,
      pos_relative: n > 1 ? k / (n - 1) : 0,
      pos_first_step: jj === 0 ? 1 : 0,
      pos_second_step: jj === 1 ? 1 : 0,
      pos_inverse: jj >= 0 ? 1 / (1 + jj) : 0,
      pos_early: jj >= 0 && jj < 3 ? 1 : 0,
      pos_last: k === n - 1 ? 1 : 0,
      pos_log_step: jj >= 0 ? Math.log1p(jj) / 5 : 0,
      pos_steps_3_5: jj >= 3 && jj <= 5 ? 1 : 0,
      pos_steps_6_10: jj >= 6 && jj <= 10 ? 1 : 0,
      pos_steps_11_20: jj >= 11 && jj <= 20 ? 1 : 0,
      pos_steps_over_20: jj > 20 ? 1 : 0,
      pos_last_step: k === lastSuspect ? 1 : 0,
      pos_step_relative: jj >= 0 && suspects > 1 ? jj / (suspects - 1) : 0,
      kind_coordinator: kind === "coordinator" ? 1 : 0,
      kind_worker: kind === "worker" ? 1 : 0,
      kind_executor: kind === "executor" ? 1 : 0,
      kind_first_of_kind: !human && kindBefore === 0 ? 1 : 0,
      kind_worker_output: kind === "worker" && (e.content ?? "").length > 0 ? 1 : 0,
      kind_after_executor: k > 0 && !human && agentKind(ordered[k - 1]!.role, ordered[k - 1]!.type) === "executor" && !isHuman(ordered[k - 1]!) ? 1 : 0,
      agent_first_event: !human && before === 0 ? 1 : 0,
      agent_earlier_events: Math.log1p(before) / 3,
      agent_second_event: !human && before === 1 ? 1 : 0,
      first_reply: !human && before === 0 && (e.type === "return" || e.type === "message" || e.type === "tool_call") ? 1 : 0,
      second_reply: !human && before === 1 && (e.type === "return" || e.type === "message" || e.type === "tool_call") ? 1 : 0,
      run_first_return: returnIndex === 0 ? 1 : 0,
      run_second_return: returnIndex === 1 ? 1 : 0,
      run_third_return: returnIndex === 2 ? 1 : 0,
      decision_after_reply: e.type === "orchestrator_decision" && k > 0 && ordered[k - 1]!.type === "return" ? 1 : 0,
      agent_share: human ? 0 : counts.get(key)! / suspects,
      agent_appearance: human ? 0 : 1 / (1 + appearance.get(key)!),
      agent_first_speaker: !human && appearance.get(key) === 0 ? 1 : 0,
      same_agent_as_previous: k > 0 && agentKey(ordered[k - 1]!.agent) === key ? 1 : 0,
      reaches_terminal: dist >= 0 ? 1 : 0,
      terminal_distance: dist >= 0 ? Math.min(1, dist / Math.max(1, n)) : 1,
      is_terminal: v === g.terminal ? 1 : 0,
      fan_in: Math.log1p(fanIn) / 2,
      fan_out: Math.log1p(fanOut) / 2,
      status_error: failed[k]!,
      next_fails: nextFails,
      caused_error: causedError[k]!,
      caused_first_error: firstError >= 0 && cause[firstError] === k ? 1 : 0,
      before_first_error: firstError >= 0 && k < firstError ? 1 : 0,
      after_first_error: firstError >= 0 && k > firstError ? 1 : 0,
      answer_origin: k === answer.origin ? 1 : 0,
      answer_before_origin: k === beforeOrigin ? 1 : 0,
      answer_carrier: answer.carries[k]!,
      answer_stated: k === answer.stated ? 1 : 0,
      ...roleFeatures(e.role),
      ...textSignals(e.content ?? ""),
    };
    for (const t of EVENT_TYPES) named[`type_${t}`] = e.type === t ? 1 : 0;
    // How the run reacted: the words of the next event often show that this one went wrong.
    const next = k + 1 < n ? textSignals(ordered[k + 1]!.content ?? "") : null;
    for (const marker of REACTION_MARKERS) named[`next_${marker}`] = next?.[marker] ?? 0;
    for (const [m, c] of credits) named[`credit_${m}`] = c[k]!;
    return { named, hashed: hashedNgrams(e.content ?? "") };
  });
}
