import { describe, expect, it } from "vitest";
import {
  applyWeightOverrides,
  BUILTIN_PRESETS,
  parseWeightOverrides,
  resolvePreset,
  weightOverridesSchema,
  weightPresetSchema,
  type WeightPreset,
} from "./presets";
import { FAMILIES } from "../trace/types";

const allWeights = (w: number) => Object.fromEntries(FAMILIES.map((f) => [f, w]));

describe("built-in presets", () => {
  it("match the table of SPEC.md section 2", () => {
    expect(BUILTIN_PRESETS.code_generation.weights).toEqual({
      task_success: 1, step_quality: 0.5, tool_use_correctness: 0.3, orchestration: 0,
      parallelism_speedup: 0, communication_efficiency: 0, stop_decision: 0, cost: -0.1,
    });
    expect(BUILTIN_PRESETS.multi_source_research.weights).toEqual({
      task_success: 1, step_quality: 0, tool_use_correctness: 0, orchestration: 0.4,
      parallelism_speedup: 0.3, communication_efficiency: 0.2, stop_decision: 0, cost: 0,
    });
    expect(BUILTIN_PRESETS.customer_support.weights).toEqual({
      task_success: 1, step_quality: 0.6, tool_use_correctness: 0, orchestration: 0,
      parallelism_speedup: 0, communication_efficiency: 0, stop_decision: 0.3, cost: -0.2,
    });
    expect(BUILTIN_PRESETS.uniform.weights).toEqual({ ...allWeights(1), cost: -1 });
    for (const p of Object.values(BUILTIN_PRESETS)) expect(p.token_budget).toBe(100_000);
  });
});

describe("weightPresetSchema", () => {
  it("accepts a full preset and defaults the token budget", () => {
    const parsed = weightPresetSchema.parse({ name: " mine ", weights: allWeights(0.5) });
    expect(parsed).toEqual({ name: "mine", weights: allWeights(0.5), token_budget: 100_000 });
  });

  it("rejects missing or unknown families, a non-positive budget and built-in names", () => {
    const { cost: _cost, ...sevenWeights } = allWeights(1);
    expect(weightPresetSchema.safeParse({ name: "x", weights: sevenWeights }).success).toBe(false);
    expect(weightPresetSchema.safeParse({ name: "x", weights: { ...allWeights(1), speed: 1 } }).success).toBe(false);
    expect(weightPresetSchema.safeParse({ name: "x", weights: allWeights(1), token_budget: 0 }).success).toBe(false);
    expect(weightPresetSchema.safeParse({ name: "uniform", weights: allWeights(1) }).success).toBe(false);
    expect(weightPresetSchema.safeParse({ name: "", weights: allWeights(1) }).success).toBe(false);
  });
});

describe("weight overrides", () => {
  it("replace single weights and keep the rest", () => {
    const p = applyWeightOverrides(BUILTIN_PRESETS.code_generation, { cost: -0.5, orchestration: 0.2 });
    expect(p.weights.cost).toBe(-0.5);
    expect(p.weights.orchestration).toBe(0.2);
    expect(p.weights.step_quality).toBe(0.5);
    expect(p.name).toBe("code_generation");
    expect(BUILTIN_PRESETS.code_generation.weights.cost).toBe(-0.1); // not mutated
  });

  it("reject unknown families and non-numbers", () => {
    expect(weightOverridesSchema.safeParse({ speed: 1 }).success).toBe(false);
    expect(weightOverridesSchema.safeParse({ cost: Number.NaN }).success).toBe(false);
  });

  it("parse from w.<family> query parameters", () => {
    const ok = parseWeightOverrides(new URLSearchParams("method=ccp&w.cost=-0.3&w.task_success=2"));
    expect(ok.success && ok.data).toEqual({ cost: -0.3, task_success: 2 });
    expect(parseWeightOverrides(new URLSearchParams("w.cost=")).success).toBe(false);
    expect(parseWeightOverrides(new URLSearchParams("w.cost=abc")).success).toBe(false);
    expect(parseWeightOverrides(new URLSearchParams("w.speed=1")).success).toBe(false);
  });
});

describe("resolvePreset", () => {
  const mine: WeightPreset = { name: "mine", weights: { ...BUILTIN_PRESETS.uniform.weights }, token_budget: 5000 };

  it("finds built-in and user presets, with overrides", () => {
    expect(resolvePreset()).toBe(BUILTIN_PRESETS.uniform);
    expect(resolvePreset("mine", { cost: 0 }, [mine])).toEqual({ ...mine, weights: { ...mine.weights, cost: 0 } });
    expect(resolvePreset("nope")).toBeNull();
  });
});
