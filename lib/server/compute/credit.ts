import "server-only";
import { isDecimal } from "@/lib/api/params";
import { isStorableText } from "@/lib/api/text";
import { computeCredit, CREDIT_METHODS, GroupTooSmallError, type CreditMethod, type CreditResponse } from "@/lib/credit";
import { FAMILIES, type Family } from "@/lib/trace/types";
import { DEFAULT_PRESET, resolvePreset, type WeightOverrides } from "@/lib/rewards";
import type { Problem } from "@/lib/trace/validate";
import { judgesParam, selectionParam, type JudgeSelection } from "@/lib/judges/selection";
import { ApiError } from "../errors";
import { humanLabels } from "../queries/annotations";
import { loadGroup, loadTrace } from "../queries/load-trace";
import { userPresets } from "../queries/presets";

export interface CreditQuery {
  method: CreditMethod;
  preset: string;
  normalize: boolean;
  overrides: WeightOverrides;
  /** judge values to fill units people left empty (SPEC.md section 5; default none) */
  judges: JudgeSelection;
}

const FAMILY_SET: ReadonlySet<string> = new Set(FAMILIES);

const MAX_WEIGHT = 1e6;

/**
 * Reads `method`, `preset`, `normalize` and `w.<family>` from the query
 * string; every problem is reported with its parameter as the path.
 */
export function parseCreditQuery(params: URLSearchParams): CreditQuery {
  const problems: Problem[] = [];
  const method = params.get("method") ?? "ccp";
  if (!(CREDIT_METHODS as readonly string[]).includes(method)) {
    problems.push({ path: "method", message: `unknown method "${method}"; one of ${CREDIT_METHODS.join(", ")}` });
  }
  const normalizeRaw = params.get("normalize") ?? "0";
  if (!["0", "1", "true", "false"].includes(normalizeRaw)) problems.push({ path: "normalize", message: "must be 0 or 1" });
  const overrides: WeightOverrides = {};
  for (const [key, value] of params) {
    if (!key.startsWith("w.")) continue;
    const family = key.slice(2);
    // decimal only (SPEC.md section 7: `0x10` is a 400), and bounded so that no weighted sum overflows
    const weight = isDecimal(value) ? Number(value) : Number.NaN;
    if (!FAMILY_SET.has(family)) problems.push({ path: key, message: `unknown family "${family}"; one of ${FAMILIES.join(", ")}` });
    else if (!Number.isFinite(weight) || Math.abs(weight) > MAX_WEIGHT) problems.push({ path: key, message: `must be a decimal number in [-${MAX_WEIGHT}, ${MAX_WEIGHT}]` });
    else overrides[family as Family] = weight;
  }
  const preset = params.get("preset") ?? DEFAULT_PRESET;
  if (preset.length > 200 || !isStorableText(preset)) problems.push({ path: "preset", message: "a preset name: at most 200 characters, no U+0000 or lone surrogate" });
  const judges = judgesParam.safeParse(params.get("judges") ?? undefined);
  if (!judges.success) problems.push({ path: "judges", message: judges.error.issues[0]!.message });
  if (problems.length > 0) throw new ApiError(400, "invalid_parameter", "invalid query parameter(s)", problems);
  return { method: method as CreditMethod, preset, normalize: normalizeRaw === "1" || normalizeRaw === "true", overrides, judges: judges.data! };
}

/** `GET /api/traces/{id}/credit`: credit of every event under one method and preset (SPEC.md section 3). */
export async function traceCredit(traceId: string, query: CreditQuery): Promise<CreditResponse & { judges: string }> {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${query.preset}"`, [{ path: "preset", message: `unknown preset "${query.preset}"` }]);
  const trace = await loadTrace(traceId);
  const { labels } = await humanLabels(trace.trace_id, query.judges);
  const needsGroup = query.method === "grpo" || query.method === "gigpo";
  const group = needsGroup && trace.group_id ? await Promise.all((await loadGroup(trace.group_id)).map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id, query.judges)).labels }))) : [];
  try {
    return { ...computeCredit(trace, { method: query.method, preset, normalize: query.normalize, group, labels }), judges: selectionParam(query.judges) || "none" };
  } catch (error) {
    if (error instanceof GroupTooSmallError) {
      throw new ApiError(422, "group_too_small", `${query.method} needs a group of at least 2 traces sharing the trace's group_id: ${error.message}`);
    }
    throw error;
  }
}
