/**
 * Range queries over the layout's per-lane index, and the reusable marks
 * that let a scene test "is this event drawn?" without allocating.
 */
import type { Layout } from "./layout";
import type { WorldRect } from "./scene-types";

/** Reusable membership marks, so a scene allocates nothing per event. */
export interface SceneScratch {
  stamp: Int32Array;
  generation: number;
}

export function createSceneScratch(n: number): SceneScratch {
  return { stamp: new Int32Array(n), generation: 0 };
}

/**
 * Calls `visit(seq)` for every event of lanes [laneFrom, laneTo] whose box
 * [x, x + w] meets [x0, x1]. Stops early when `visit` returns false.
 */
export function forEachInWindow(layout: Layout, laneFrom: number, laneTo: number, window: WorldRect, visit: (seq: number) => boolean | void): void {
  const { x, w, laneStart, laneSeqs, laneMaxW } = layout;
  for (let l = laneFrom; l <= laneTo; l++) {
    const begin = laneStart[l]!;
    const end = laneStart[l + 1]!;
    let p = lowerBoundBy(laneSeqs, begin, end, x, window.x0 - laneMaxW[l]!);
    for (; p < end; p++) {
      const s = laneSeqs[p]!;
      if (x[s]! > window.x1) break;
      if (x[s]! + w[s]! < window.x0) continue;
      if (visit(s) === false) return;
    }
  }
}

export function nextGeneration(scratch: SceneScratch): number {
  scratch.generation++;
  if (scratch.generation >= 0x7fffffff) {
    scratch.stamp.fill(0);
    scratch.generation = 1;
  }
  return scratch.generation;
}

/** First position p in [begin, end) with key[seqs[p]] >= value (seqs sorted by key). */
function lowerBoundBy(seqs: Int32Array, begin: number, end: number, key: Float64Array, value: number): number {
  let lo = begin;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key[seqs[mid]!]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
