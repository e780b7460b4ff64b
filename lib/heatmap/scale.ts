/**
 * The diverging colour domain of a heatmap: symmetric around 0, so blame and
 * credit of the same size get the same intensity and 0 is always the neutral
 * midpoint. Nulls never enter it (they are gaps, not zeros).
 */
import type { HeatmapCell } from "./types";

/** [-m, m] with m the largest |value| among non-null cells; [-1, 1] when there is none or all are 0. */
export function symmetricDomain(values: Iterable<number | null>): [number, number] {
  let m = 0;
  for (const v of values) if (v !== null && Number.isFinite(v)) m = Math.max(m, Math.abs(v));
  return m > 0 ? [-m, m] : [-1, 1];
}

/** Five legend ticks: -m, -m/2, 0, m/2, m. */
export function legendTicks([low, high]: [number, number]): number[] {
  return [low, low / 2, 0, high / 2, high];
}

export function cellValues(cells: readonly (readonly HeatmapCell[])[]): (number | null)[] {
  return cells.flatMap((row) => row.map((c) => c.value));
}
