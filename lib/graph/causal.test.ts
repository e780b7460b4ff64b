import { describe, expect, it } from "vitest";
import {
  ancestorMask,
  buildCausalGraph,
  CausalCycleError,
  createBfsScratch,
  clearBfs,
  criticalMask,
  distancesTo,
  filteredPredecessors,
  forwardReach,
  longestPaths,
  predecessors,
  reverseBfs,
  successors,
  topologicalOrder,
} from "./causal";
import { chainTrace, DIAMOND, makeTrace, NO_AGGREGATE, TIES } from "./fixtures";

// DIAMOND positions: a=0 b=1 c=2 d=3 e=4 f=5
const diamond = () => buildCausalGraph(makeTrace(DIAMOND));

describe("buildCausalGraph", () => {
  it("keeps non-temporal edges in CSR form, parallel edges merged", () => {
    const g = diamond();
    expect(g.n).toBe(6);
    expect([...successors(g, 0)]).toEqual([1, 2, 4]); // a -> b, c, e (in edge order)
    expect([...predecessors(g, 3)]).toEqual([1, 2]); // d <- b (twice: causal + message), c
    expect([...predecessors(g, 4)]).toEqual([0, 3]); // e <- a, d; e -> a is temporal, ignored
    expect([...predecessors(g, 0)]).toEqual([]);
    expect([...successors(g, 5)]).toEqual([]); // f is isolated
    expect(g.succ.length).toBe(6); // 8 edges - 1 temporal - 1 parallel
  });

  it("skips edges to unknown events and self-loops", () => {
    const g = buildCausalGraph(
      makeTrace({
        events: [
          { id: "a", t: 0, type: "message", agent: "x" },
          { id: "b", t: 1, type: "message", agent: "x" },
        ],
        edges: [["a", "a"], ["a", "zz"], ["a", "b"]],
      }),
    );
    expect([...successors(g, 0)]).toEqual([1]);
  });

  it("orders events by t, ties by array position", () => {
    const g = buildCausalGraph(makeTrace(TIES));
    // t: x=2 y=1 z=1 w=0 v=2 -> w, y, z, x, v
    expect([...g.order]).toEqual([3, 1, 2, 0, 4]);
    expect([...g.rank]).toEqual([3, 1, 2, 0, 4]);
  });

  it("picks the last aggregate as terminal and the last stop decision as the stop event", () => {
    const g = buildCausalGraph(makeTrace(TIES));
    expect(g.terminal).toBe(4); // v: same t as x, later in the array
    expect(g.stop).toBe(2); // z: same t as y, later in the array
  });

  it("falls back to the last event in event order without aggregates, and -1 without stops", () => {
    const g = buildCausalGraph(makeTrace(NO_AGGREGATE));
    expect(g.terminal).toBe(1); // p and q both at t=5; q comes later in the array
    expect(g.stop).toBe(-1);
  });

  it("rejects an empty trace", () => {
    expect(() => buildCausalGraph({ events: [], edges: [] })).toThrow(RangeError);
  });
});

describe("distances and reachability", () => {
  it("gives the fewest causal hops to an anchor, -1 when unreachable", () => {
    // e: itself 0; d 1; a 1 (shortcut a -> e); b, c 2 (via d); f unreachable
    expect([...distancesTo(diamond(), 4)]).toEqual([1, 2, 2, 1, 0, -1]);
  });

  it("bounds the reverse BFS and reuses its scratch", () => {
    const g = diamond();
    const scratch = createBfsScratch(g.n);
    const count = reverseBfs(g, 4, 1, scratch);
    expect(count).toBe(3); // e, a, d
    expect([...scratch.queue.subarray(0, count)]).toEqual([4, 0, 3]);
    expect(scratch.dist[1]).toBe(-1); // b is 2 hops away
    clearBfs(scratch, count);
    expect([...scratch.dist]).toEqual([-1, -1, -1, -1, -1, -1]);
  });

  it("restricts only the last hop to the given predecessor lists", () => {
    const g = diamond();
    // keep only spawns on the last hop: from e, hop 1 reaches a and d; hop 2 from d
    // may only enter b and c (both spawns), and a is already at 1
    const spawnsOnly = filteredPredecessors(g, Uint8Array.of(0, 1, 1, 0, 0, 0));
    expect([...spawnsOnly.targets]).toEqual([1, 2]); // only d <- b, c survive
    const scratch = createBfsScratch(g.n);
    const count = reverseBfs(g, 4, 2, scratch, spawnsOnly);
    expect([...scratch.dist]).toEqual([1, 2, 2, 1, 0, -1]);
    clearBfs(scratch, count);
    // the same search with only decisions kept on the last hop: b and c are not entered
    const decisionsOnly = filteredPredecessors(g, Uint8Array.of(1, 0, 0, 0, 0, 0));
    reverseBfs(g, 4, 2, scratch, decisionsOnly);
    expect([...scratch.dist]).toEqual([1, -1, -1, 1, 0, -1]);
  });

  it("lists ancestors without the event itself", () => {
    expect([...ancestorMask(diamond(), 4)]).toEqual([1, 1, 1, 1, 0, 0]);
    expect([...ancestorMask(diamond(), 3)]).toEqual([1, 1, 1, 0, 0, 0]);
  });

  it("reaches forward from sources, not through blocked events", () => {
    const g = diamond();
    expect([...forwardReach(g, [1])]).toEqual([0, 1, 0, 1, 1, 0]); // b, d, e
    const blocked = Uint8Array.of(0, 0, 0, 1, 0, 0);
    expect([...forwardReach(g, [1], blocked)]).toEqual([0, 1, 0, 0, 0, 0]);
  });
});

describe("topological order and longest paths", () => {
  it("orders every edge forward (Kahn, FIFO)", () => {
    const g = diamond();
    // ready at start: a, f; then b, c (from a); d (after b and c); e
    expect([...topologicalOrder(g)]).toEqual([0, 5, 1, 2, 3, 4]);
  });

  it("counts the most events on one causal path and marks every longest path", () => {
    const paths = longestPaths(diamond());
    // ending: a1 b2 c2 d3 e4 (max(d, a) + 1) f1; starting: a4 b3 c3 d2 e1 f1
    expect([...paths.ending]).toEqual([1, 2, 2, 3, 4, 1]);
    expect([...paths.starting]).toEqual([4, 3, 3, 2, 1, 1]);
    expect(paths.length).toBe(4);
    // on a longest path when ending + starting - 1 = 4: all but f
    expect([...criticalMask(paths)]).toEqual([1, 1, 1, 1, 1, 0]);
  });

  it("throws a typed error on a causal cycle", () => {
    const g = buildCausalGraph(
      makeTrace({
        events: [
          { id: "a", t: 0, type: "message", agent: "x" },
          { id: "b", t: 1, type: "message", agent: "x" },
        ],
        edges: [["a", "b"], ["b", "a", "message"]],
      }),
    );
    expect(() => topologicalOrder(g)).toThrow(CausalCycleError);
  });

  it("handles a 100k-event chain without recursion", () => {
    const g = buildCausalGraph(chainTrace(100_000));
    expect(g.terminal).toBe(99_999);
    expect(distancesTo(g, g.terminal)[0]).toBe(99_999);
    expect(longestPaths(g).length).toBe(100_000);
  });
});
