/**
 * Edges by event seq, in both directions (CSR: offsets + edge indices), and
 * the causal lineage of one event ("what led here", "what this influenced").
 * Lineage follows causal edges only: every kind except `temporal` (SPEC.md
 * section 1). Iterative, so a 100,000-event chain is fine.
 */
import { EDGE_TYPES } from "../trace/types";

export const TEMPORAL_KIND = EDGE_TYPES.indexOf("temporal");

export interface EdgeIndex {
  readonly n: number;
  readonly src: Int32Array;
  readonly dst: Int32Array;
  /** Index into EDGE_TYPES. */
  readonly kind: Uint8Array;
  /** Edges leaving seq s: `out[outStart[s] .. outStart[s + 1])` (edge indices, input order). */
  readonly outStart: Int32Array;
  readonly out: Int32Array;
  /** Edges entering seq s: `into[intoStart[s] .. intoStart[s + 1])`. */
  readonly intoStart: Int32Array;
  readonly into: Int32Array;
}

/** Indexes `m` edges over `n` events. Edges naming a seq outside [0, n) are dropped. O(n + m). */
export function buildEdgeIndex(n: number, src: Int32Array, dst: Int32Array, kind: Uint8Array): EdgeIndex {
  const keep: number[] = [];
  for (let e = 0; e < src.length; e++) if (src[e]! >= 0 && src[e]! < n && dst[e]! >= 0 && dst[e]! < n) keep.push(e);
  const s = Int32Array.from(keep, (e) => src[e]!);
  const d = Int32Array.from(keep, (e) => dst[e]!);
  const k = Uint8Array.from(keep, (e) => kind[e]!);
  const outward = bucket(n, s);
  const inward = bucket(n, d);
  return { n, src: s, dst: d, kind: k, outStart: outward.start, out: outward.items, intoStart: inward.start, into: inward.items };
}

function bucket(n: number, key: Int32Array): { start: Int32Array; items: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < key.length; e++) start[key[e]! + 1]!++;
  for (let v = 0; v < n; v++) start[v + 1] = start[v + 1]! + start[v]!;
  const fill = start.slice(0, n);
  const items = new Int32Array(key.length);
  for (let e = 0; e < key.length; e++) items[fill[key[e]!]!++] = e;
  return { start, items };
}

export const LINEAGE_ANCESTOR = 1;
export const LINEAGE_DESCENDANT = 2;
export const LINEAGE_SELF = 4;

/**
 * Per event: LINEAGE_ANCESTOR if it has a causal path to `seq`,
 * LINEAGE_DESCENDANT if `seq` has one to it, LINEAGE_SELF for `seq`.
 * O(V + E) at worst.
 */
export function lineage(index: EdgeIndex, seq: number): Uint8Array {
  const mask = new Uint8Array(index.n);
  mask[seq] = LINEAGE_SELF;
  walk(index, seq, mask, LINEAGE_ANCESTOR, index.intoStart, index.into, index.src);
  walk(index, seq, mask, LINEAGE_DESCENDANT, index.outStart, index.out, index.dst);
  return mask;
}

function walk(index: EdgeIndex, from: number, mask: Uint8Array, bit: number, start: Int32Array, edges: Int32Array, other: Int32Array): void {
  const queue = new Int32Array(index.n);
  let tail = 0;
  queue[tail++] = from;
  for (let head = 0; head < tail; head++) {
    const v = queue[head]!;
    for (let p = start[v]!; p < start[v + 1]!; p++) {
      const e = edges[p]!;
      if (index.kind[e] === TEMPORAL_KIND) continue;
      const u = other[e]!;
      if ((mask[u]! & (bit | LINEAGE_SELF)) !== 0) continue;
      mask[u] = mask[u]! | bit;
      queue[tail++] = u;
    }
  }
}
