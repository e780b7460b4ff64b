import type { EventType, Family } from "../trace/types";

/**
 * Which families an event of a type anchors (SPEC.md section 2), for the
 * labeling controls. task_success (the terminal) and stop_decision (stop
 * events, else the terminal) depend on the whole trace and are passed in.
 */
const BY_TYPE: Partial<Record<EventType, Family[]>> = {
  message: ["step_quality", "communication_efficiency"],
  return: ["step_quality"],
  aggregate: ["step_quality", "orchestration"],
  spawn: ["orchestration", "parallelism_speedup"],
  tool_call: ["tool_use_correctness"],
};

export function labelFamilies(event: { type: EventType; decision?: string | null }, opts: { terminal: boolean; stopAnchor: boolean }): Family[] {
  const out: Family[] = [...(BY_TYPE[event.type] ?? [])];
  if (opts.stopAnchor) out.push("stop_decision");
  if (opts.terminal) out.push("task_success");
  out.push("cost");
  return out;
}
