/**
 * Trace-level reward channels of the paper's schema and the families they
 * feed (SPEC.md section 2). Channels outside this mapping (`agent`, `role`,
 * `verifier`, `hybrid`, ...) are kept and shown by the app but never enter
 * credit.
 */
import type { Family } from "../trace/types";

/** The alias channels of a family (a family's own name always maps to itself). */
const ALIASES_OF: Readonly<Partial<Record<Family, readonly string[]>>> = {
  task_success: ["team"],
  step_quality: ["process"],
  tool_use_correctness: ["tool"],
};

/**
 * The value of the trace's `rewards` channel that maps to `family`, or null.
 * The family's own name wins over an alias (`task_success` over `team`).
 */
export function channelValue(rewards: Readonly<Record<string, number>> | undefined, family: Family): number | null {
  if (!rewards) return null;
  const own = ownNumber(rewards, family);
  if (own !== null) return own;
  for (const alias of ALIASES_OF[family] ?? []) {
    const value = ownNumber(rewards, alias);
    if (value !== null) return value;
  }
  return null;
}

function ownNumber(record: Readonly<Record<string, number>>, key: string): number | null {
  if (!Object.hasOwn(record, key)) return null;
  const value = record[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
