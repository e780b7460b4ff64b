import type { Trace } from "@/lib/trace/types";

/**
 * Turns a validated trace into the rows Baton stores: events numbered in
 * event order (`seq`: by t, ties by input position), edges pointing at those
 * numbers, and the E1 the trace reports about itself.
 */
export interface TraceForStorage {
  trace: Trace;
  project: string;
  /** order[seq] = input position of the event with that seq */
  order: Int32Array;
  /** seqOf[position] = seq */
  seqOf: Int32Array;
  /** per edge: [srcSeq, dstSeq] flattened */
  edgeEnds: Int32Array;
  reportedE1: 0 | 1 | null;
}

export function prepareForStorage(trace: Trace): TraceForStorage {
  const n = trace.events.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const times = Float64Array.from(trace.events, (e) => e.t);
  order.sort((a, b) => times[a]! - times[b]! || a - b);
  const seqOf = new Int32Array(n);
  for (let s = 0; s < n; s++) seqOf[order[s]!] = s;

  const position = new Map<string, number>();
  trace.events.forEach((e, i) => position.set(e.id, i));
  const edgeEnds = new Int32Array(trace.edges.length * 2);
  trace.edges.forEach((edge, j) => {
    edgeEnds[2 * j] = seqOf[position.get(edge.src)!]!;
    edgeEnds[2 * j + 1] = seqOf[position.get(edge.dst)!]!;
  });
  return { trace, project: trace.project ?? "default", order, seqOf, edgeEnds, reportedE1: reportedE1(trace) };
}

/**
 * E1 from the trace alone (SPEC.md section 4, without human labels):
 * metrics.task_success (>= 0.5 -> 1), else the task_success or team reward channel (> 0 -> 1).
 */
export function reportedE1(trace: Trace): 0 | 1 | null {
  const reported = trace.metrics?.task_success;
  if (reported !== undefined) return reported >= 0.5 ? 1 : 0;
  const channel = trace.rewards.task_success ?? trace.rewards.team;
  if (channel !== undefined) return channel > 0 ? 1 : 0;
  return null;
}
