import "server-only";
import { prepareTrace } from "@/lib/credit";
import { exportRows } from "@/lib/export/rows";
import { extendedForm, strictForm } from "@/lib/export/forms";
import { resolvePreset } from "@/lib/rewards";
import { ApiError } from "../errors";
import { humanLabels, listAnnotations } from "../queries/annotations";
import { loadGroup, loadTrace } from "../queries/load-trace";
import { userPresets } from "../queries/presets";
import type { CreditQuery } from "./credit";

export const EXPORT_FORMATS = ["jsonl", "strict", "extended"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * One trace exported for training (SPEC.md section 6): JSONL rows with
 * rewards, credit and advantage, or the trace itself in strict or extended
 * form. Returns text: JSONL lines, or one JSON document.
 */
export async function exportTrace(traceId: string, format: ExportFormat, query: CreditQuery): Promise<string> {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${query.preset}"`, [{ path: "preset", message: `unknown preset "${query.preset}"` }]);
  const trace = await loadTrace(traceId, { content: format === "extended" ? "all" : "messages" });
  const { labels, asOf } = await humanLabels(trace.trace_id, query.judges);
  const prepared = prepareTrace(trace, labels);
  if (format === "strict") return JSON.stringify(strictForm(trace, prepared.rewards(preset.token_budget)));
  if (format === "extended") {
    const annotations = (await listAnnotations(trace.trace_id)).map(({ id: _id, ...a }) => a);
    return JSON.stringify(extendedForm(trace, prepared.rewards(preset.token_budget), labels, annotations));
  }
  const needsGroup = query.method === "grpo" || query.method === "gigpo";
  const group = needsGroup && trace.group_id
    ? await Promise.all((await loadGroup(trace.group_id)).map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id, query.judges)).labels })))
    : [];
  const rows = exportRows(prepared, { method: query.method, preset, normalize: query.normalize, group, annotationsAsOf: asOf?.toISOString() ?? null });
  return rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
}
