/**
 * R_total taken apart: what each family adds (w_f x R_f, SPEC.md section 2),
 * so that a person reading "R_total +0.2" on a failed run sees that
 * communication and parallelism outweighed task_success -1.
 */
import { FAMILIES, type Family } from "../trace/types";
import { cleanFloat, formatValue } from "../format";
import type { FamilyWeights } from "./presets";

export interface RTotalPart {
  family: Family;
  weight: number;
  /** R_f, the family's trace value */
  value: number;
  /** w_f x R_f */
  contribution: number;
}

/** The families that have a trace value, in SPEC.md's order; their contributions sum to R_total. */
export function rTotalBreakdown(families: Readonly<Record<Family, number | null>>, weights: Readonly<FamilyWeights>): RTotalPart[] {
  const parts: RTotalPart[] = [];
  for (const family of FAMILIES) {
    const value = families[family];
    if (value !== null) parts.push({ family, weight: weights[family], value, contribution: weights[family] * value });
  }
  return parts;
}

/** One line per family, largest effect first: "task_success 1 × -1 = -1". "no family has a trace value" when none does. */
export function breakdownLines(parts: readonly RTotalPart[]): string[] {
  if (parts.length === 0) return ["no family has a trace value"];
  return [...parts]
    .sort((a, b) => Math.abs(cleanFloat(b.contribution)) - Math.abs(cleanFloat(a.contribution)) || FAMILIES.indexOf(a.family) - FAMILIES.indexOf(b.family))
    .map((p) => `${p.family} ${formatValue(p.weight)} × ${formatValue(p.value)} = ${formatValue(p.contribution)}`);
}
