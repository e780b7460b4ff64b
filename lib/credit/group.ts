/**
 * Group-relative baselines (SPEC.md section 3): `grpo` compares a trace's
 * R_total with the other rollouts of its group; `gigpo` adds a step-level
 * advantage comparing each event's return with similar events of the group.
 */
import { rTotal } from "../rewards/index";
import type { HumanLabels } from "../rewards/labels";
import type { WeightPreset } from "../rewards/presets";
import type { Trace, TraceEvent } from "../trace/types";
import { immediateRewards, mcReturns } from "./baselines";
import { prepareTrace, type PreparedTrace } from "./prepare";

/** Keeps the advantage finite when every value in a group is equal. */
export const STD_EPSILON = 1e-6;

/** A rollout of the group, with the human labels that apply to it. */
export interface GroupMember {
  readonly trace: Trace;
  readonly labels?: HumanLabels;
}

/** Thrown when fewer than 2 traces share the group_id; the API answers 422. */
export class GroupTooSmallError extends Error {
  override readonly name = "GroupTooSmallError";
  readonly code = "group_too_small";
  constructor(
    readonly groupId: string | null,
    readonly size: number,
  ) {
    super(
      groupId === null
        ? "grpo and gigpo need a group: this trace has no group_id"
        : `grpo and gigpo need at least 2 traces with group_id "${groupId}"; found ${size}`,
    );
  }
}

/**
 * The target and the members sharing its group_id, target first, each
 * trace_id once. Throws {@link GroupTooSmallError} below 2.
 */
export function groupOf(target: PreparedTrace, members: readonly GroupMember[]): PreparedTrace[] {
  const groupId = target.analysis.trace.group_id ?? null;
  if (groupId === null) throw new GroupTooSmallError(null, 1);
  const seen = new Set([target.analysis.trace.trace_id]);
  const group = [target];
  for (const m of members) {
    if (m.trace.group_id !== groupId || seen.has(m.trace.trace_id)) continue;
    seen.add(m.trace.trace_id);
    group.push(prepareTrace(m.trace, m.labels));
  }
  if (group.length < 2) throw new GroupTooSmallError(groupId, group.length);
  return group;
}

/** (x - mean) / (population std + 1e-6) for each x. */
export function standardize(xs: readonly number[]): number[] {
  let sum = 0;
  for (const x of xs) sum += x;
  const mean = sum / xs.length;
  let squares = 0;
  for (const x of xs) squares += (x - mean) * (x - mean);
  const std = Math.sqrt(squares / xs.length);
  return xs.map((x) => (x - mean) / (std + STD_EPSILON));
}

function groupRTotals(group: readonly PreparedTrace[], preset: WeightPreset): number[] {
  return group.map((p) => rTotal(p.rewards(preset.token_budget).families, preset.weights));
}

/** `grpo`: the target's (group[0]'s) advantage, given to every event. */
export function grpoCredit(group: readonly PreparedTrace[], preset: WeightPreset): Float64Array {
  const advantage = standardize(groupRTotals(group, preset))[0]!;
  return new Float64Array(group[0]!.analysis.graph.n).fill(advantage);
}

/** The GiGPO step key: (role or agent; type; content_ref, or tool, or ""). */
export function stepKey(e: TraceEvent): string {
  return `${e.role ?? e.agent}\u0000${e.type}\u0000${e.content_ref ?? e.tool ?? ""}`;
}

/**
 * `gigpo`: A(v) = A_grpo + A_S(v), A_S standardising each event's mc_return
 * within its step-key group across all traces of the group (0 for a key
 * group of one event). For the target, group[0]. O(sum of group sizes).
 */
export function gigpoCredit(group: readonly PreparedTrace[], preset: WeightPreset): Float64Array {
  const aGrpo = standardize(groupRTotals(group, preset))[0]!;
  const keyIndex = new Map<string, number>();
  const counts: number[] = [];
  const sums: number[] = [];
  const memberKeys: Int32Array[] = [];
  const memberReturns: Float64Array[] = [];
  for (const p of group) {
    const { graph, trace } = p.analysis;
    const returns = mcReturns(graph, immediateRewards(p.rewards(preset.token_budget), preset.weights, graph.n));
    const keys = new Int32Array(graph.n);
    for (let i = 0; i < graph.n; i++) {
      const key = stepKey(trace.events[i]!);
      let k = keyIndex.get(key);
      if (k === undefined) {
        k = counts.length;
        keyIndex.set(key, k);
        counts.push(0);
        sums.push(0);
      }
      keys[i] = k;
      counts[k]! += 1;
      sums[k]! += returns[i]!;
    }
    memberKeys.push(keys);
    memberReturns.push(returns);
  }
  const means = sums.map((s, k) => s / counts[k]!);
  // Second pass for the variance: sums of squared deviations stay exact enough when returns are close.
  const squares = new Float64Array(counts.length);
  memberKeys.forEach((keys, m) => {
    const returns = memberReturns[m]!;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const dev = returns[i]! - means[k]!;
      squares[k] = squares[k]! + dev * dev;
    }
  });

  const keys = memberKeys[0]!;
  const returns = memberReturns[0]!;
  const out = new Float64Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const count = counts[k]!;
    const aStep = count === 1 ? 0 : (returns[i]! - means[k]!) / (Math.sqrt(squares[k]! / count) + STD_EPSILON);
    out[i] = aGrpo + aStep;
  }
  return out;
}
