/**
 * The diverging colour domain of a heatmap: symmetric around 0, so blame and
 * credit of the same size get the same intensity and 0 is always the neutral
 * midpoint. Nulls never enter it (they are gaps, not zeros).
 */
import type { HeatmapCell } from "./types";

/**
 * [-m, m] with m the largest |value| among non-null cells rounded up to a
 * round number whose half is round too (1, 2, 2.5, 5 or 10 times a power of
 * ten, doubled: 9.11 -> 10, 1.935 -> 2, 0.5 stays), so that the legend reads
 * -10, -5, 0, 5, 10 rather than -9.11, -4.555, ...; [-1, 1] when there is no
 * value or all are 0.
 */
export function symmetricDomain(values: Iterable<number | null>): [number, number] {
  let m = 0;
  for (const v of values) if (v !== null && Number.isFinite(v)) m = Math.max(m, Math.abs(v));
  if (!(m > 0)) return [-1, 1];
  const half = roundUp(m / 2);
  return [-2 * half, 2 * half];
}

/** The smallest of 1, 2, 2.5, 5, 10 times a power of ten that is >= x (> 0). */
function roundUp(x: number): number {
  const power = 10 ** Math.floor(Math.log10(x));
  const f = Number((x / power).toPrecision(12));
  const step = [1, 2, 2.5, 5, 10].find((n) => n >= f) ?? 10;
  return Number((step * power).toPrecision(12));
}

/** Five legend ticks: -m, -m/2, 0, m/2, m (round numbers: see symmetricDomain). */
export function legendTicks([low, high]: [number, number]): number[] {
  return [low, low / 2, 0, high / 2, high];
}

export function cellValues(cells: readonly (readonly HeatmapCell[])[]): (number | null)[] {
  return cells.flatMap((row) => row.map((c) => c.value));
}
