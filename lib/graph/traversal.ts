/**
 * Traversals of the causal graph: bounded reverse BFS with reusable
 * scratch, forward reachability, topological order and longest paths. All
 * iterative (explicit queues), all on the CSR arrays of {@link CausalGraph}.
 */
import type { CausalGraph } from "./causal";

/** Thrown when the non-temporal edges contain a cycle (validation rejects such traces). */
export class CausalCycleError extends Error {
  override readonly name = "CausalCycleError";
}

/**
 * Reusable buffers for bounded reverse BFS, so that many small searches
 * (orchestration: one per anchor) allocate nothing. `dist` is -1 outside a search.
 */
export interface BfsScratch {
  readonly dist: Int32Array;
  readonly queue: Int32Array;
}

export function createBfsScratch(n: number): BfsScratch {
  return { dist: new Int32Array(n).fill(-1), queue: new Int32Array(n) };
}

/** Predecessor lists in CSR form: those of v are `targets[start[v] .. start[v + 1])`. */
export interface PredecessorLists {
  readonly start: Int32Array;
  readonly targets: Int32Array;
}

/** The predecessor lists restricted to events with `keep[u] === 1`. O(V + E). */
export function filteredPredecessors(g: CausalGraph, keep: Uint8Array): PredecessorLists {
  const start = new Int32Array(g.n + 1);
  const targets = new Int32Array(g.pred.length);
  let w = 0;
  for (let v = 0; v < g.n; v++) {
    start[v] = w;
    for (let p = g.predStart[v]!, end = g.predStart[v + 1]!; p < end; p++) {
      const u = g.pred[p]!;
      if (keep[u] === 1) targets[w++] = u;
    }
  }
  start[g.n] = w;
  return { start, targets: targets.slice(0, w) };
}

/**
 * Reverse BFS from `source` along causal edges up to `maxDepth` hops.
 * Afterwards `scratch.dist[v]` = d(v, source) for the returned count of
 * visited events, listed in `scratch.queue[0 .. count)` in BFS order; call
 * {@link clearBfs} with that count before reusing the scratch.
 *
 * `lastHop`, when given, replaces the predecessor lists for the final hop
 * only: a caller that needs just some events at the boundary (orchestration
 * credit reaches only decisions, spawns and aggregates) then skips the
 * wide fan-in of everything else, which dominates bounded searches.
 * Distances stay exact: every event it finds is first reached at that hop.
 * O(visited events + their scanned in-edges).
 */
export function reverseBfs(
  g: CausalGraph,
  source: number,
  maxDepth: number,
  scratch: BfsScratch,
  lastHop?: PredecessorLists,
): number {
  const { dist, queue } = scratch;
  const lastStart = lastHop?.start ?? g.predStart;
  const lastTargets = lastHop?.targets ?? g.pred;
  dist[source] = 0;
  queue[0] = source;
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const v = queue[head++]!;
    const dv = dist[v]!;
    if (dv >= maxDepth) continue;
    const last = dv === maxDepth - 1;
    const start = last ? lastStart : g.predStart;
    const targets = last ? lastTargets : g.pred;
    for (let p = start[v]!, end = start[v + 1]!; p < end; p++) {
      const u = targets[p]!;
      if (dist[u] !== -1) continue;
      dist[u] = dv + 1;
      queue[tail++] = u;
    }
  }
  return tail;
}

/** Resets the distances written by the last {@link reverseBfs}. */
export function clearBfs(scratch: BfsScratch, count: number): void {
  for (let i = 0; i < count; i++) scratch.dist[scratch.queue[i]!] = -1;
}

/** d(v, target) for every event v: 0 for the target, -1 when v does not reach it. O(V + E). */
export function distancesTo(g: CausalGraph, target: number): Int32Array {
  const scratch = createBfsScratch(g.n);
  reverseBfs(g, target, Infinity, scratch);
  return scratch.dist;
}

/** 1 for every ancestor of v (v itself excluded). */
export function ancestorMask(g: CausalGraph, v: number): Uint8Array {
  const dist = distancesTo(g, v);
  const mask = new Uint8Array(g.n);
  for (let u = 0; u < g.n; u++) if (dist[u]! > 0) mask[u] = 1;
  return mask;
}

/**
 * Events reachable from `sources` along causal edges, sources included.
 * A `blocked` event is neither entered nor passed through (taint stops at a
 * safety_event). O(V + E).
 */
export function forwardReach(g: CausalGraph, sources: ArrayLike<number>, blocked?: Uint8Array): Uint8Array {
  const seen = new Uint8Array(g.n);
  const queue = new Int32Array(g.n);
  let tail = 0;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i]!;
    if (seen[s] === 1 || blocked?.[s] === 1) continue;
    seen[s] = 1;
    queue[tail++] = s;
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    for (let p = g.succStart[v]!, end = g.succStart[v + 1]!; p < end; p++) {
      const u = g.succ[p]!;
      if (seen[u] === 1 || blocked?.[u] === 1) continue;
      seen[u] = 1;
      queue[tail++] = u;
    }
  }
  return seen;
}

/** A topological order (Kahn, smallest ready index first in FIFO order). Throws {@link CausalCycleError}. */
export function topologicalOrder(g: CausalGraph): Int32Array {
  const n = g.n;
  const indegree = new Int32Array(n);
  for (let v = 0; v < n; v++) indegree[v] = g.predStart[v + 1]! - g.predStart[v]!;
  const out = new Int32Array(n);
  let tail = 0;
  for (let v = 0; v < n; v++) if (indegree[v] === 0) out[tail++] = v;
  for (let head = 0; head < tail; head++) {
    const v = out[head]!;
    for (let p = g.succStart[v]!, end = g.succStart[v + 1]!; p < end; p++) {
      const u = g.succ[p]!;
      indegree[u] = indegree[u]! - 1;
      if (indegree[u] === 0) out[tail++] = u;
    }
  }
  if (tail < n) throw new CausalCycleError("the causal edges contain a cycle");
  return out;
}

export interface LongestPaths {
  /** Most events on a causal path ending at v (v included). */
  readonly ending: Int32Array;
  /** Most events on a causal path starting at v (v included). */
  readonly starting: Int32Array;
  /** critical_steps: the most events on one causal path. */
  readonly length: number;
}

/** Longest causal paths counted in events, by dynamic programming over a topological order. O(V + E). */
export function longestPaths(g: CausalGraph, topo: Int32Array = topologicalOrder(g)): LongestPaths {
  const n = g.n;
  const ending = new Int32Array(n);
  const starting = new Int32Array(n);
  let length = 0;
  for (let k = 0; k < n; k++) {
    const v = topo[k]!;
    let best = 0;
    for (let p = g.predStart[v]!, end = g.predStart[v + 1]!; p < end; p++) best = Math.max(best, ending[g.pred[p]!]!);
    ending[v] = best + 1;
    if (best + 1 > length) length = best + 1;
  }
  for (let k = n - 1; k >= 0; k--) {
    const v = topo[k]!;
    let best = 0;
    for (let p = g.succStart[v]!, end = g.succStart[v + 1]!; p < end; p++) best = Math.max(best, starting[g.succ[p]!]!);
    starting[v] = best + 1;
  }
  return { ending, starting, length };
}

/** 1 for every event on at least one longest causal path. */
export function criticalMask(paths: LongestPaths): Uint8Array {
  const n = paths.ending.length;
  const mask = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (paths.ending[v]! + paths.starting[v]! - 1 === paths.length) mask[v] = 1;
  return mask;
}
