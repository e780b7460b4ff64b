/**
 * The overview strip's model: event counts on a coarse grid over the whole
 * world (rows by y, columns by x, both linear so the brush maps back to
 * world coordinates by a scale), plus the counts of marked events (errors,
 * taint) drawn on top.
 */
import type { Layout } from "./layout";

export interface OverviewGrid {
  rows: number;
  cols: number;
  /** Events per cell, row-major. */
  counts: Uint32Array;
  /** Marked events per cell (see `markMask`). */
  marks: Uint32Array;
  maxCount: number;
  /** The world size the grid spans. */
  width: number;
  height: number;
}

/**
 * Bins every event by the centre of its node. Rows are capped at the number
 * of lanes so a lane never spans a fraction of a row. O(events).
 */
export function overviewGrid(layout: Layout, roles: Uint16Array, markMask: number, cols = 480, maxRows = 48): OverviewGrid {
  const lanes = layout.laneTop.length - 1;
  const rows = Math.max(1, Math.min(maxRows, lanes));
  const width = Math.max(1, layout.width);
  const height = Math.max(1, layout.height);
  const counts = new Uint32Array(rows * cols);
  const marks = new Uint32Array(rows * cols);
  let maxCount = 0;
  for (let s = 0; s < layout.x.length; s++) {
    const lane = layout.lane[s]!;
    const yMid = (layout.laneTop[lane]! + layout.laneTop[lane + 1]!) / 2;
    const r = Math.min(rows - 1, Math.floor((yMid / height) * rows));
    const c = Math.min(cols - 1, Math.floor((layout.x[s]! / width) * cols));
    const cell = r * cols + c;
    const count = ++counts[cell]!;
    if (count > maxCount) maxCount = count;
    if ((roles[s]! & markMask) !== 0) marks[cell]!++;
  }
  return { rows, cols, counts, marks, maxCount, width, height };
}
