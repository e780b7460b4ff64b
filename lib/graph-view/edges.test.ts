import { describe, expect, it } from "vitest";
import { EDGE_TYPES } from "../trace/types";
import { buildEdgeIndex, lineage, LINEAGE_ANCESTOR, LINEAGE_DESCENDANT, LINEAGE_SELF } from "./edges";

const kind = (name: (typeof EDGE_TYPES)[number]) => EDGE_TYPES.indexOf(name);

// 0 -> 1 -> 3, 0 -> 2 -> 3, 3 -> 4; temporal 4 -> 5; 6 alone; one edge out of range
const index = buildEdgeIndex(
  7,
  Int32Array.from([0, 1, 0, 2, 3, 4, 0]),
  Int32Array.from([1, 3, 2, 3, 4, 5, 99]),
  Uint8Array.from([kind("spawn"), kind("causal"), kind("spawn"), kind("message"), kind("aggregate"), kind("temporal"), kind("causal")]),
);

describe("buildEdgeIndex", () => {
  it("lists each event's edges both ways and drops edges to unknown events", () => {
    expect(index.src.length).toBe(6);
    const out = (s: number) => Array.from(index.out.subarray(index.outStart[s], index.outStart[s + 1]), (e) => index.dst[e]);
    const into = (s: number) => Array.from(index.into.subarray(index.intoStart[s], index.intoStart[s + 1]), (e) => index.src[e]);
    expect(out(0)).toEqual([1, 2]);
    expect(into(3)).toEqual([1, 2]);
    expect(out(6)).toEqual([]);
  });
});

describe("lineage", () => {
  it("marks causal ancestors and descendants, not through temporal edges", () => {
    const mask = Array.from(lineage(index, 3));
    expect(mask).toEqual([LINEAGE_ANCESTOR, LINEAGE_ANCESTOR, LINEAGE_ANCESTOR, LINEAGE_SELF, LINEAGE_DESCENDANT, 0, 0]);
  });

  it("marks only the event itself when it is isolated", () => {
    expect(Array.from(lineage(index, 6))).toEqual([0, 0, 0, 0, 0, 0, LINEAGE_SELF]);
  });
});
