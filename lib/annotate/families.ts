import { ANCHOR_TYPES } from "../rewards/families";
import { FAMILIES, type EventType, type Family } from "../trace/types";

/**
 * Which families an event of a type anchors (SPEC.md section 2), for the
 * labeling controls of the label page and queues: exactly those, so a
 * digit key never writes a family the event cannot carry. stop_decision
 * (stop events, else the terminal) depends on the whole trace and is passed
 * in; task_success is a trace-level family (an event-level value enters
 * nothing) and is labelled on the trace unit, not here; cost anchors every
 * event.
 */
export function labelFamilies(event: { type: EventType }, opts: { stopAnchor: boolean }): Family[] {
  const out: Family[] = FAMILIES.filter((f) => ANCHOR_TYPES[f]?.has(event.type) ?? false);
  if (opts.stopAnchor) out.push("stop_decision");
  out.push("cost");
  return out;
}
