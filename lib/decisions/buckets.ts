/**
 * The buckets of the decision analytics, as stored per trace (so that SQL
 * groups by a stored column and never re-derives them): the five
 * sub-decisions and, for each, the dimension its outcome is split by.
 */
import type { DecisionFeatures } from "./features";

export const DECISIONS = [
  { key: "spawn", label: "O1 spawn", question: "when to spawn" },
  { key: "delegate", label: "O2 delegate", question: "whom to delegate to" },
  { key: "communicate", label: "O3 communicate", question: "how to communicate" },
  { key: "aggregate", label: "O4 aggregate", question: "how to aggregate" },
  { key: "stop", label: "O5 stop", question: "when to stop" },
] as const;
export type DecisionKey = (typeof DECISIONS)[number]["key"];

export const BUCKET_DIMENSIONS = [
  { by: "agents_spawned", decision: "spawn", label: "agents spawned" },
  { by: "delegate_role", decision: "delegate", label: "delegate role" },
  { by: "messages_per_agent", decision: "communicate", label: "messages per agent" },
  { by: "aggregate_fan_in", decision: "aggregate", label: "aggregate fan-in (most direct inputs of one aggregate)" },
  { by: "stop_reason", decision: "stop", label: "stop reason" },
  { by: "verdict", decision: "stop", label: "stop verdict" },
] as const satisfies readonly { by: string; decision: DecisionKey; label: string }[];
export type BucketDimension = (typeof BUCKET_DIMENSIONS)[number]["by"];

export const NO_DELEGATION = "(no delegation)";
export const NO_STOP = "(no stop)";
export const NO_AGGREGATE = "none";
export const NO_VERDICT = "(not computed)";

/** 0, 1, 2, 3, 4, then "5+". */
export function countBucket(n: number): string {
  return n >= 5 ? "5+" : String(n);
}

/** Messages per agent: "0", "(0, 1]", "(1, 2]", "(2, 4]", "> 4". */
export function messagesPerAgentBucket(x: number): string {
  if (x <= 0) return "0";
  if (x <= 1) return "(0, 1]";
  if (x <= 2) return "(1, 2]";
  if (x <= 4) return "(2, 4]";
  return "> 4";
}

/** The stored bucket keys of a trace (one per dimension; delegate roles are a list). */
export interface TraceBuckets {
  agents_spawned: string;
  delegate_roles: string[];
  messages_per_agent: string;
  aggregate_fan_in: string;
}

export function traceBuckets(f: DecisionFeatures): TraceBuckets {
  return {
    agents_spawned: countBucket(f.agents_spawned),
    delegate_roles: f.delegate_roles.length > 0 ? f.delegate_roles : [NO_DELEGATION],
    messages_per_agent: messagesPerAgentBucket(f.messages_per_agent),
    aggregate_fan_in: f.aggregate_fan_in === null ? NO_AGGREGATE : countBucket(f.aggregate_fan_in),
  };
}

const ORDER = [NO_DELEGATION, NO_STOP, NO_VERDICT, NO_AGGREGATE, "0", "(0, 1]", "1", "(1, 2]", "2", "(2, 4]", "3", "4", "> 4", "5+"];

/** Sort order of bucket keys: the "nothing" buckets, numbers by value, then names alphabetically. */
export function compareBuckets(a: string, b: string): number {
  const rank = (s: string) => {
    const i = ORDER.indexOf(s);
    return i < 0 ? ORDER.length : i;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
