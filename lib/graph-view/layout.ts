/**
 * Positions of every event in world coordinates: x from time (or from event
 * order, evenly spaced), one lane per agent stacked top to bottom. Events of
 * one lane that would overlap are packed into up to MAX_ROWS rows; beyond
 * that they overlap (never hidden). Typed arrays only, no objects per event:
 * 100,000 events lay out in a few milliseconds. Runs in the layout worker.
 */

export const NODE_HEIGHT = 24;
/** Width of an event without duration: just its glyph. */
export const NODE_MIN_WIDTH = 24;
/** Vertical room per row: the node plus its caption. */
export const ROW_HEIGHT = 38;
export const LANE_PAD = 8;
export const MAX_ROWS = 4;
/** Horizontal step between consecutive events when spaced by event order. */
export const ORDER_STEP = 40;
/** In time spacing, the typical gap between an agent's consecutive events becomes this many pixels. */
export const TARGET_GAP = 48;
/** Gap kept between two events sharing a row. */
const ROW_GAP_X = 4;

export type Spacing = "time" | "order";

export interface LayoutInput {
  /** Per event, in event order (seq). */
  readonly t: Float64Array;
  /** NaN when the event has no `t_end`. */
  readonly tEnd: Float64Array;
  readonly lane: Int32Array;
  readonly laneCount: number;
  readonly spacing: Spacing;
}

export interface Layout {
  readonly spacing: Spacing;
  /** World units per second (time) or per event (order). */
  readonly scale: number;
  /** The time at x = 0 (time spacing). */
  readonly origin: number;
  readonly x: Float64Array;
  readonly w: Float64Array;
  readonly row: Uint8Array;
  readonly lane: Int32Array;
  /** Top of each lane; `laneTop[laneCount]` is the world height. */
  readonly laneTop: Float64Array;
  readonly laneRows: Uint8Array;
  /** The events of lane L, by x, are `laneSeqs[laneStart[L] .. laneStart[L + 1])`. */
  readonly laneStart: Int32Array;
  readonly laneSeqs: Int32Array;
  /** Widest event per lane: a range query must look this far left of its window. */
  readonly laneMaxW: Float64Array;
  readonly width: number;
  readonly height: number;
}

/** Lays out every event. O(events x MAX_ROWS), plus a sort of the gaps in time spacing. */
export function computeLayout(input: LayoutInput): Layout {
  const { t, tEnd, lane, laneCount, spacing } = input;
  const n = t.length;
  const { laneStart, laneSeqs } = groupByLane(lane, laneCount);
  let origin = 0;
  let scale = ORDER_STEP;
  if (spacing === "time") {
    origin = n > 0 ? t[0]! : 0; // seq order is by t
    scale = timeScale(t, laneStart, laneSeqs);
  }
  const x = new Float64Array(n);
  const w = new Float64Array(n);
  let width = 0;
  for (let s = 0; s < n; s++) {
    if (spacing === "time") {
      x[s] = (t[s]! - origin) * scale;
      const end = tEnd[s]!;
      w[s] = Number.isNaN(end) ? NODE_MIN_WIDTH : Math.max(NODE_MIN_WIDTH, (end - t[s]!) * scale);
    } else {
      x[s] = s * ORDER_STEP;
      w[s] = NODE_MIN_WIDTH;
    }
    width = Math.max(width, x[s]! + w[s]!);
  }
  const { row, laneRows, laneMaxW } = packRows(x, w, laneStart, laneSeqs, laneCount);
  const laneTop = new Float64Array(laneCount + 1);
  for (let l = 0; l < laneCount; l++) laneTop[l + 1] = laneTop[l]! + laneHeight(laneRows[l]!);
  return { spacing, scale, origin, x, w, row, lane, laneTop, laneRows, laneStart, laneSeqs, laneMaxW, width, height: laneTop[laneCount]! };
}

export function laneHeight(rows: number): number {
  return 2 * LANE_PAD + Math.max(1, rows) * ROW_HEIGHT;
}

/** World y of the top of an event's node. */
export function nodeY(layout: Layout, seq: number): number {
  return layout.laneTop[layout.lane[seq]!]! + LANE_PAD + layout.row[seq]! * ROW_HEIGHT;
}

/** Counting sort of events by lane, keeping event order within a lane (and so x order). */
export function groupByLane(lane: Int32Array, laneCount: number): { laneStart: Int32Array; laneSeqs: Int32Array } {
  const laneStart = new Int32Array(laneCount + 1);
  for (let s = 0; s < lane.length; s++) laneStart[lane[s]! + 1]!++;
  for (let l = 0; l < laneCount; l++) laneStart[l + 1] = laneStart[l + 1]! + laneStart[l]!;
  const fill = laneStart.slice(0, laneCount);
  const laneSeqs = new Int32Array(lane.length);
  for (let s = 0; s < lane.length; s++) laneSeqs[fill[lane[s]!]!++] = s;
  return { laneStart, laneSeqs };
}

/**
 * World units per second: the median positive gap between an agent's
 * consecutive starts becomes TARGET_GAP pixels at zoom 1. 1 when no gap is
 * positive (every event at one instant).
 */
export function timeScale(t: Float64Array, laneStart: Int32Array, laneSeqs: Int32Array): number {
  const gaps: number[] = [];
  for (let l = 0; l + 1 < laneStart.length; l++) {
    for (let p = laneStart[l]! + 1; p < laneStart[l + 1]!; p++) {
      const gap = t[laneSeqs[p]!]! - t[laneSeqs[p - 1]!]!;
      if (gap > 0) gaps.push(gap);
    }
  }
  if (gaps.length === 0) return 1;
  const sorted = Float64Array.from(gaps).sort();
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
  return TARGET_GAP / median;
}

/** Greedy interval packing per lane: each event takes the first row free at its x. */
function packRows(x: Float64Array, w: Float64Array, laneStart: Int32Array, laneSeqs: Int32Array, laneCount: number) {
  const row = new Uint8Array(x.length);
  const laneRows = new Uint8Array(laneCount);
  const laneMaxW = new Float64Array(laneCount);
  const ends = new Float64Array(MAX_ROWS);
  for (let l = 0; l < laneCount; l++) {
    let used = 0;
    for (let p = laneStart[l]!; p < laneStart[l + 1]!; p++) {
      const s = laneSeqs[p]!;
      let r = -1;
      for (let k = 0; k < used; k++) {
        if (ends[k]! <= x[s]!) {
          r = k;
          break;
        }
      }
      if (r < 0 && used < MAX_ROWS) r = used++;
      if (r < 0) r = argMin(ends, used);
      row[s] = r;
      ends[r] = x[s]! + w[s]! + ROW_GAP_X;
      laneMaxW[l] = Math.max(laneMaxW[l]!, w[s]!);
    }
    laneRows[l] = Math.max(1, used);
  }
  return { row, laneRows, laneMaxW };
}

function argMin(values: Float64Array, count: number): number {
  let best = 0;
  for (let k = 1; k < count; k++) if (values[k]! < values[best]!) best = k;
  return best;
}
