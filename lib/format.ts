/** Number formatting shared by every view, so one value always reads the same. Null is an em dash, never 0. */
export function formatValue(value: number | boolean | string | null | undefined, digits = 3): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  if (Number.isInteger(value)) return value.toLocaleString("en");
  return value.toLocaleString("en", { maximumFractionDigits: digits });
}

export function formatPercent(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined) return "—";
  return `${(value * 100).toFixed(digits)}%`;
}
