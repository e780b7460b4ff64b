import type { Trace } from "@/lib/trace/types";
import type { Edit, EditIntent } from "./edit";
import type { Divergence, Origin } from "./plan";

/** Run keys Baton makes for replays and forks begin with this; only such keys are looked up as replays. */
export const REPLAY_KEY_PREFIX = "cf-";

export interface CounterfactualInfo {
  /** the trace replayed (T) */
  of: string;
  taskId: string;
  /** the counterfactual group: T's own group when T is itself a fork, else T's trace_id */
  group: string;
  callId: string | null;
  edit: Edit | null;
  intent: EditIntent | null;
  intervention: number | null;
  sample: number;
  divergence: Divergence | null;
  origins: Origin[];
  served: number;
  forwarded: number;
  /** the runner's grade (exit code), when it grades: the trace's task_success channel */
  success: boolean | null;
}

/**
 * A replay run's trace (docs/replay.md "Forks as traces"): the gateway's
 * trace of its calls, with T's task_id and `metadata.counterfactual =
 * {of, call_id, edit, sample, group, intent, intervention, divergence,
 * origins, served, forwarded}` (call_id and edit null for an unchanged
 * replay); a runner's grade becomes the `task_success` reward channel
 * (+1 or -1, so E1 is 1 or 0). Its group_id is left as the gateway gives it (none): forks are
 * not rollouts sampled together, and would skew a GRPO group.
 */
export function counterfactualTrace(trace: Trace, info: CounterfactualInfo): Trace {
  const metadata = typeof trace.metadata === "object" && trace.metadata !== null && !Array.isArray(trace.metadata) ? trace.metadata : {};
  return {
    ...trace,
    task_id: info.taskId,
    ...(info.success !== null && { rewards: { ...trace.rewards, task_success: info.success ? 1 : -1 } }),
    metadata: {
      ...metadata,
      counterfactual: {
        of: info.of, call_id: info.callId, edit: info.edit, sample: info.sample, group: info.group, intent: info.intent,
        intervention: info.intervention, divergence: info.divergence, origins: info.origins, served: info.served, forwarded: info.forwarded,
      },
    },
  };
}
