import { cleanFloat } from "@/lib/format";

/** The graph view's number formats, in one place so a value reads the same everywhere. */

export function formatCount(n: number): string {
  return n.toLocaleString("en");
}

/** Credit and reward values: 4 significant decimals, signed; null as an em dash (never 0); float debris (|v| < 1e-9, e.g. -1.92e-15) as 0. */
export function formatCredit(raw: number | null | undefined): string {
  if (raw === null || raw === undefined || Number.isNaN(raw)) return "—";
  const value = cleanFloat(raw);
  if (value === 0) return "0";
  const text = Math.abs(value) >= 0.001 ? value.toFixed(4) : value.toExponential(2);
  return value > 0 ? `+${text}` : text;
}

export function formatRatio(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : value.toFixed(3);
}

/** Any field value of an event, for the inspector: strings as they are, the rest as JSON. */
export function formatField(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}
