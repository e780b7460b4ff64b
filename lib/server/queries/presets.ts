import "server-only";
import { BUILTIN_PRESETS, familyWeightsSchema, weightPresetSchema, type WeightPreset } from "@/lib/rewards";
import { prisma } from "../db/client";
import { ApiError } from "../errors";
import { jsonPath } from "@/lib/trace/validate";

export interface ApiPreset {
  name: string;
  weights: WeightPreset["weights"];
  token_budget: number;
  builtin: boolean;
}

/** All presets: the four built-in ones first, then the user's, by name. */
export async function listPresets(): Promise<ApiPreset[]> {
  const rows = await prisma().preset.findMany({ orderBy: [{ builtin: "desc" }, { name: "asc" }] });
  return rows.map((r) => ({ name: r.name, weights: familyWeightsSchema.parse(r.weights), token_budget: r.tokenBudget, builtin: r.builtin }));
}

/** The user-defined presets as the compute core takes them (built-ins come from lib/rewards). */
export async function userPresets(): Promise<WeightPreset[]> {
  return (await listPresets()).filter((p) => !p.builtin);
}

/** Validates and stores a user-defined preset; 409 if the name is taken. */
export async function createPreset(body: unknown): Promise<ApiPreset> {
  const parsed = weightPresetSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(400, "invalid_input", "invalid preset", parsed.error.issues.map((i) => ({ path: jsonPath("$", i.path), message: i.message })));
  }
  const { name, weights, token_budget } = parsed.data;
  const taken = await prisma().preset.findUnique({ where: { name } });
  if (taken) throw new ApiError(409, "conflict", `a preset named "${name}" exists`, [{ path: "$.name", message: "taken" }]);
  await prisma().preset.create({ data: { name, weights, tokenBudget: token_budget } });
  return { name, weights, token_budget, builtin: false };
}

export { BUILTIN_PRESETS };
