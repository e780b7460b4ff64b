/**
 * The diverging scale of every heatmap: RdBu, red for blame, blue for
 * credit, white at 0, over the model's symmetric domain (the graph's credit
 * overlay uses the same scheme). Nulls are never coloured: they are gaps.
 */
import { interpolateRdBu, lab } from "d3";

export function cellColour(value: number, [low, high]: [number, number]): string {
  const t = high > low ? (value - low) / (high - low) : 0.5;
  return interpolateRdBu(Math.max(0, Math.min(1, t)));
}

/** Dark or light text, whichever reads on the cell. */
export function textOn(fill: string): string {
  return lab(fill).l > 58 ? "#0f172a" : "#ffffff";
}
