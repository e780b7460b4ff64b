/**
 * Pixel geometry of a heatmap (drawing only: sizes follow the model's row
 * and column counts and label lengths). Big enough to read on a
 * meeting-room screen: 14-22 px text, cells at least 32 px wide.
 */
import type { HeatmapModel } from "@/lib/heatmap/types";

export interface HeatmapLayout {
  width: number;
  height: number;
  left: number;
  top: number;
  cellWidth: number;
  cellHeight: number;
  /** Column labels turned 40 degrees when they do not fit flat. */
  rotateColumns: boolean;
  /** Values printed in the cells when they fit. */
  printValues: boolean;
  legendTop: number;
}

const CHAR = 8.6; // average width of a 15 px label character
const TITLE_BLOCK = 78;
const LEGEND_BLOCK = 126;

export function heatmapLayout(model: HeatmapModel, maxGridWidth = 1000): HeatmapLayout {
  const cols = Math.max(1, model.columns.length);
  const rows = model.rows.length;
  const cellWidth = Math.max(32, Math.min(120, Math.floor(maxGridWidth / cols)));
  const cellHeight = rows > 60 ? 20 : rows > 24 ? 28 : 40;
  const longestRow = Math.max(4, ...model.rows.map((r) => r.label.length));
  const left = Math.min(260, Math.ceil(longestRow * CHAR) + 20);
  const longestColumn = Math.max(1, ...model.columns.map((c) => c.label.length));
  const rotateColumns = longestColumn * CHAR > cellWidth - 6;
  const columnBlock = rotateColumns ? Math.min(170, Math.ceil(longestColumn * CHAR * 0.7) + 28) : 34;
  const top = TITLE_BLOCK + columnBlock;
  const gridWidth = cols * cellWidth;
  const gridHeight = Math.max(1, rows) * cellHeight;
  const legendTop = top + gridHeight + 24;
  const width = Math.max(left + gridWidth + 24, 520, Math.ceil(model.title.length * 12) + 24);
  return { width, height: legendTop + LEGEND_BLOCK, left, top, cellWidth, cellHeight, rotateColumns, printValues: cellWidth >= 56 && cellHeight >= 28, legendTop };
}
