/**
 * Side-by-side comparison: two heatmaps drawn on one colour domain (so equal
 * colours mean equal values), and, for two credit methods on one trace, the
 * cell-wise difference that shows where they disagree.
 */
import { methodName } from "./labels";
import { cellValues, legendTicks, symmetricDomain } from "./scale";
import type { HeatmapModel } from "./types";

/** The models with one domain: symmetric around 0, spanning every non-null cell of all of them. */
export function withSharedDomain(models: readonly HeatmapModel[]): HeatmapModel[] {
  const domain = symmetricDomain(models.flatMap((m) => cellValues(m.cells)));
  return models.map((m) => ({ ...m, domain, ticks: legendTicks(domain) }));
}

/** True when the two models have the same rows and columns, in the same order (same trace, kind, buckets, page). */
export function sameGrid(a: HeatmapModel, b: HeatmapModel): boolean {
  const keys = (items: { key: string }[]) => items.map((i) => i.key).join("\u0000");
  return a.kind === b.kind && keys(a.rows) === keys(b.rows) && keys(a.columns) === keys(b.columns);
}

/**
 * a - b cell by cell; null where either is null (a gap stays a gap: a value
 * against nothing is not a disagreement of that size). Its own symmetric domain.
 */
export function differenceHeatmap(a: HeatmapModel, b: HeatmapModel): HeatmapModel {
  if (!sameGrid(a, b)) throw new Error("differenceHeatmap needs two heatmaps over the same rows and columns");
  const cells = a.cells.map((row, i) =>
    row.map((cell, j) => {
      const other = b.cells[i]![j]!;
      return { ...cell, value: cell.value === null || other.value === null ? null : cell.value - other.value };
    }),
  );
  const domain = symmetricDomain(cellValues(cells));
  const names = `${methodName(a.credit.method)} - ${methodName(b.credit.method)}`;
  return {
    ...a,
    title: `Where they disagree: ${names}`,
    subtitle: `${a.subtitle} minus ${b.subtitle}`,
    value_label: `difference of the two cells (${names})`,
    cells,
    domain,
    ticks: legendTicks(domain),
    notes: [],
  };
}
