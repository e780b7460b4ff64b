/**
 * The causal graph of one trace (SPEC.md section 1, "Derived structure").
 *
 * Events are identified by their position in `trace.events`; adjacency is
 * kept in CSR form (one offsets array, one targets array) so that traces of
 * 100k+ events cost a few typed arrays, not one object per edge. Every
 * traversal is iterative: a 100k-long chain must not overflow the stack.
 */
import type { Trace, TraceEvent } from "../trace/types";

export * from "./traversal";

export interface CausalGraph {
  /** Number of events. */
  readonly n: number;
  readonly events: readonly TraceEvent[];
  /** Event id -> position in `events` (the first one, should ids repeat). */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Start time per event. */
  readonly t: Float64Array;
  /** Successors of v are `succ[succStart[v] .. succStart[v + 1])`, each listed once. */
  readonly succStart: Int32Array;
  readonly succ: Int32Array;
  /** Predecessors of v are `pred[predStart[v] .. predStart[v + 1])`, each listed once. */
  readonly predStart: Int32Array;
  readonly pred: Int32Array;
  /** Event order: `order[k]` is the event at position k (by t, ties by array position). */
  readonly order: Int32Array;
  /** Inverse of `order`: the event order index of each event. */
  readonly rank: Int32Array;
  /** The last `aggregate` in event order, else the last event in event order. */
  readonly terminal: number;
  /** The last stop decision in event order, or -1 when there is none. */
  readonly stop: number;
}

/** True for an `orchestrator_decision` with `decision: "stop"`. */
export function isStopEvent(e: TraceEvent): boolean {
  return e.type === "orchestrator_decision" && e.decision === "stop";
}

/**
 * Builds the causal graph: every non-temporal edge, parallel edges merged.
 * Edges naming unknown events and self-loops are skipped (validation rejects
 * them; skipping keeps every algorithm here total). O(events + edges).
 */
export function buildCausalGraph(trace: Pick<Trace, "events" | "edges">): CausalGraph {
  const events = trace.events;
  const n = events.length;
  if (n === 0) throw new RangeError("a trace needs at least one event");
  const indexOf = new Map<string, number>();
  const t = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    if (!indexOf.has(e.id)) indexOf.set(e.id, i);
    t[i] = e.t;
  }

  const m = trace.edges.length;
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  let k = 0;
  for (let j = 0; j < m; j++) {
    const edge = trace.edges[j]!;
    if (edge.type === "temporal") continue;
    const s = indexOf.get(edge.src);
    const d = indexOf.get(edge.dst);
    if (s === undefined || d === undefined || s === d) continue;
    src[k] = s;
    dst[k] = d;
    k++;
  }
  const forward = toCsr(n, src, dst, k);
  const backward = transpose(n, forward.start, forward.targets);
  const order = eventOrder(t);
  const rank = new Int32Array(n);
  for (let p = 0; p < n; p++) rank[order[p]!] = p;

  return {
    n,
    events,
    indexOf,
    t,
    succStart: forward.start,
    succ: forward.targets,
    predStart: backward.start,
    pred: backward.targets,
    order,
    rank,
    terminal: findTerminal(events, order),
    stop: findLast(events, order, isStopEvent),
  };
}

interface Csr {
  start: Int32Array;
  targets: Int32Array;
}

/** Counting sort of the edges by source, then an in-place pass dropping repeated targets. */
function toCsr(n: number, src: Int32Array, dst: Int32Array, m: number): Csr {
  const start = new Int32Array(n + 1);
  for (let j = 0; j < m; j++) start[src[j]! + 1] = start[src[j]! + 1]! + 1;
  for (let v = 0; v < n; v++) start[v + 1] = start[v + 1]! + start[v]!;
  const fill = start.slice(0, n);
  const targets = new Int32Array(m);
  for (let j = 0; j < m; j++) {
    const s = src[j]!;
    targets[fill[s]!] = dst[j]!;
    fill[s] = fill[s]! + 1;
  }
  // Parallel edges (a "spawn" and a "causal" edge between the same events)
  // are one causal link: counting them twice would skew predecessor counts.
  const seenFrom = new Int32Array(n).fill(-1);
  let w = 0;
  let begin = 0;
  for (let v = 0; v < n; v++) {
    const end = start[v + 1]!;
    start[v] = w;
    for (let p = begin; p < end; p++) {
      const u = targets[p]!;
      if (seenFrom[u] === v) continue;
      seenFrom[u] = v;
      targets[w++] = u;
    }
    begin = end;
  }
  start[n] = w;
  return { start, targets: targets.slice(0, w) };
}

function transpose(n: number, start: Int32Array, targets: Int32Array): Csr {
  const m = targets.length;
  const src = new Int32Array(m);
  for (let v = 0; v < n; v++) src.fill(v, start[v], start[v + 1]);
  return toCsr(n, targets, src, m);
}

/** Event order by t, ties by array position; O(n) when the events are already sorted. */
function eventOrder(t: Float64Array): Int32Array {
  const n = t.length;
  const order = new Int32Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    order[i] = i;
    if (i > 0 && t[i]! < t[i - 1]!) sorted = false;
  }
  if (!sorted) order.sort((a, b) => t[a]! - t[b]! || a - b);
  return order;
}

function findLast(events: readonly TraceEvent[], order: Int32Array, test: (e: TraceEvent) => boolean): number {
  for (let p = order.length - 1; p >= 0; p--) {
    const i = order[p]!;
    if (test(events[i]!)) return i;
  }
  return -1;
}

function findTerminal(events: readonly TraceEvent[], order: Int32Array): number {
  const lastAggregate = findLast(events, order, (e) => e.type === "aggregate");
  return lastAggregate >= 0 ? lastAggregate : order[order.length - 1]!;
}

/** Direct causal successors of v (a view, no copy). */
export function successors(g: CausalGraph, v: number): Int32Array {
  return g.succ.subarray(g.succStart[v], g.succStart[v + 1]);
}

/** Direct causal predecessors of v (a view, no copy). */
export function predecessors(g: CausalGraph, v: number): Int32Array {
  return g.pred.subarray(g.predStart[v], g.predStart[v + 1]);
}
