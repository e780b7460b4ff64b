/**
 * The credit overlay's colour scale: diverging and symmetric around 0, so
 * blame and credit of the same size get the same intensity; nulls (no
 * credit) are grey, never mistaken for 0.
 */
import { color, interpolateRdBu } from "d3";

export const NO_CREDIT_COLOUR = "#e2e8f0";

/** The largest |credit| (0 when every value is null or 0). */
export function creditExtent(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = Math.abs(values[i]!);
    if (v > max) max = v;
  }
  return max;
}

/** Position of a credit value on [0, 1]: 0.5 is zero, 0 the most negative, 1 the most positive. */
export function creditPosition(value: number, extent: number): number {
  if (extent <= 0) return 0.5;
  return 0.5 + Math.max(-1, Math.min(1, value / extent)) / 2;
}

/** Red for negative, blue for positive (RdBu), grey for null. */
export function creditColour(value: number | null, extent: number): string {
  if (value === null || Number.isNaN(value)) return NO_CREDIT_COLOUR;
  return interpolateRdBu(creditPosition(value, extent));
}

/** Dark text on light fills, white on dark ones (relative luminance, WCAG weights). */
export function inkOn(fill: string): string {
  const c = color(fill)?.rgb();
  if (!c) return "#0f172a";
  const channel = (v: number) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  return luminance > 0.3 ? "#0f172a" : "#ffffff";
}
