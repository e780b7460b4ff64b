/**
 * The structure every metric and credit method shares, computed once per
 * trace: the causal graph, a topological order and one reverse BFS from the
 * terminal event (its ancestors and their distances serve E2, E3, stop
 * diagnostics and task_success credit alike).
 */
import { buildCausalGraph, distancesTo, topologicalOrder, type CausalGraph } from "../graph/causal";
import type { Trace } from "../trace/types";

export interface TraceAnalysis {
  readonly trace: Trace;
  readonly graph: CausalGraph;
  readonly topo: Int32Array;
  /** d(v, terminal) per event; 0 for the terminal itself, -1 when v is not an ancestor. */
  readonly terminalDist: Int32Array;
}

/** Builds the shared structure of one trace. O(events + edges). */
export function analyzeTrace(trace: Trace): TraceAnalysis {
  const graph = buildCausalGraph(trace);
  return { trace, graph, topo: topologicalOrder(graph), terminalDist: distancesTo(graph, graph.terminal) };
}

/** Tokens of an event; absent counts as 0. */
export function tokensOf(e: { tokens?: number }): number {
  return e.tokens ?? 0;
}
