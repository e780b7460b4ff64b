/**
 * E1 task success (SPEC.md section 4): 1, 0 or null, from the first source
 * that exists: human trace-level labels, the reported metric, the reward
 * channel.
 */
import { channelValue } from "../rewards/channels";
import type { HumanLabels, LabelSet } from "../rewards/labels";
import type { Trace } from "../trace/types";

/**
 * E1 of a trace. Human labels decide by majority; a tie gives null and
 * stops there (the labels exist, they just disagree), so a reported metric
 * never overrides human disagreement.
 */
export function computeE1(trace: Pick<Trace, "metrics" | "rewards">, labels: HumanLabels): 0 | 1 | null {
  const human = humanMajority(labels.trace.task_success);
  if (human !== undefined) return human;
  const reported = trace.metrics?.task_success;
  if (typeof reported === "number" && Number.isFinite(reported)) return reported >= 0.5 ? 1 : 0;
  const channel = channelValue(trace.rewards, "task_success");
  if (channel !== null) return channel > 0 ? 1 : 0;
  return null;
}

/**
 * Majority of 0/1 labels: undefined when there are none, null on a tie.
 * An adjudicated value replaces the labels (section 5); it is 0 or 1 too,
 * read with the same 0.5 threshold.
 */
function humanMajority(set: LabelSet | undefined): 0 | 1 | null | undefined {
  if (!set) return undefined;
  if (typeof set.adjudicated === "number") return set.adjudicated > 0.5 ? 1 : set.adjudicated < 0.5 ? 0 : null;
  if (set.values.length === 0) return undefined;
  let successes = 0;
  for (const v of set.values) if (v >= 0.5) successes++;
  const failures = set.values.length - successes;
  return successes > failures ? 1 : failures > successes ? 0 : null;
}
