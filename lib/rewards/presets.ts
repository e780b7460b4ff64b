/**
 * Weight presets (SPEC.md section 2, from seed 000), user-defined presets
 * and per-request weight overrides, with the zod schemas that guard them at
 * the API boundary.
 */
import { z } from "zod";
import { FAMILIES, type Family } from "../trace/types";

export type FamilyWeights = Record<Family, number>;

export interface WeightPreset {
  readonly name: string;
  readonly weights: Readonly<FamilyWeights>;
  /** Tokens that make the automatic cost value reach 1. */
  readonly token_budget: number;
}

export const DEFAULT_TOKEN_BUDGET = 100_000;

function preset(name: string, w: FamilyWeights): WeightPreset {
  return Object.freeze({ name, weights: Object.freeze(w), token_budget: DEFAULT_TOKEN_BUDGET });
}

// Columns: task_success, step_quality, tool_use_correctness, orchestration,
// parallelism_speedup, communication_efficiency, stop_decision, cost.
export const BUILTIN_PRESETS = {
  code_generation: preset("code_generation", {
    task_success: 1, step_quality: 0.5, tool_use_correctness: 0.3, orchestration: 0,
    parallelism_speedup: 0, communication_efficiency: 0, stop_decision: 0, cost: -0.1,
  }),
  multi_source_research: preset("multi_source_research", {
    task_success: 1, step_quality: 0, tool_use_correctness: 0, orchestration: 0.4,
    parallelism_speedup: 0.3, communication_efficiency: 0.2, stop_decision: 0, cost: 0,
  }),
  customer_support: preset("customer_support", {
    task_success: 1, step_quality: 0.6, tool_use_correctness: 0, orchestration: 0,
    parallelism_speedup: 0, communication_efficiency: 0, stop_decision: 0.3, cost: -0.2,
  }),
  uniform: preset("uniform", {
    task_success: 1, step_quality: 1, tool_use_correctness: 1, orchestration: 1,
    parallelism_speedup: 1, communication_efficiency: 1, stop_decision: 1, cost: -1,
  }),
} as const satisfies Record<string, WeightPreset>;

export type BuiltinPresetName = keyof typeof BUILTIN_PRESETS;
export const DEFAULT_PRESET: BuiltinPresetName = "uniform";

export function isBuiltinPreset(name: string): name is BuiltinPresetName {
  return Object.hasOwn(BUILTIN_PRESETS, name);
}

const weight = z.number().finite();

/** Weights for all eight families, nothing else. */
export const familyWeightsSchema = z.strictObject(
  Object.fromEntries(FAMILIES.map((f) => [f, weight])) as Record<Family, typeof weight>,
);

/**
 * A user-defined preset. Its name may not shadow a built-in one, so that
 * `?preset=uniform` always means the table of SPEC.md section 2.
 */
export const weightPresetSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .refine((name) => !isBuiltinPreset(name), { message: "this name belongs to a built-in preset" }),
  weights: familyWeightsSchema,
  token_budget: z.number().finite().positive().default(DEFAULT_TOKEN_BUDGET),
});

/** Single weights replacing those of a preset; unknown families are rejected. */
export const weightOverridesSchema = z.partialRecord(z.enum(FAMILIES), weight);
export type WeightOverrides = z.infer<typeof weightOverridesSchema>;

/** The preset with some weights replaced; the name and token budget stay. */
export function applyWeightOverrides(base: WeightPreset, overrides: WeightOverrides | undefined): WeightPreset {
  if (!overrides || Object.keys(overrides).length === 0) return base;
  return { name: base.name, token_budget: base.token_budget, weights: { ...base.weights, ...overrides } };
}

/**
 * Collects `w.<family>=<number>` query parameters into overrides and
 * validates them (an empty value is an error, not 0).
 */
export function parseWeightOverrides(params: Iterable<[string, string]>) {
  const entries: [string, number][] = [];
  for (const [key, value] of params) {
    if (key.startsWith("w.")) entries.push([key.slice(2), value.trim() === "" ? Number.NaN : Number(value)]);
  }
  // fromEntries defines own properties, so even `w.__proto__` reaches validation.
  return weightOverridesSchema.safeParse(Object.fromEntries(entries));
}

/**
 * Finds a preset by name among the built-ins and the user's own, then
 * applies overrides. Returns null for an unknown name.
 */
export function resolvePreset(
  name: string = DEFAULT_PRESET,
  overrides?: WeightOverrides,
  userPresets: readonly WeightPreset[] = [],
): WeightPreset | null {
  const base = isBuiltinPreset(name) ? BUILTIN_PRESETS[name] : userPresets.find((p) => p.name === name);
  return base ? applyWeightOverrides(base, overrides) : null;
}
