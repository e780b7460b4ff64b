import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { readPrepared } from "@/lib/server/db/prepared";
import { computeCredit, GroupTooSmallError, type CreditResponse } from "@/lib/credit";
import {
  buildAgentTimeHeatmap,
  buildEventFamilyHeatmap,
  buildRoleFamilyHeatmap,
  creditedTrace,
  roleSumsOf,
  type CreditedTrace,
  type HeatmapModel,
  type TraceRoleSums,
} from "@/lib/heatmap";
import type { RoleHeatmapQuery, TraceHeatmapQuery } from "@/lib/heatmap/query";
import { resolvePreset, type WeightPreset } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { ApiError } from "../errors";
import { humanLabels } from "../queries/annotations";
import { loadGroup, loadTrace, loadTracesById } from "../queries/load-trace";
import { userPresets } from "../queries/presets";
import { describeFilter, traceWhere, type TraceFilter } from "../queries/trace-filter";
import { summaryWhere } from "../summaries/read";
import type { CreditQuery } from "./credit";
import { keepsRoleSums, roleSumsOfTraces } from "./role-sums";

/**
 * Heatmaps: load the trace(s), compute credit exactly as
 * `GET /api/traces/{id}/credit` does (same preset resolution, labels and
 * group), then hand the credit JSON to the pure builders of lib/heatmap.
 */
async function presetOf(query: CreditQuery): Promise<WeightPreset> {
  const preset = resolvePreset(query.preset, query.overrides, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${query.preset}"`, [{ path: "preset", message: `unknown preset "${query.preset}"` }]);
  return preset;
}

type Labels = Awaited<ReturnType<typeof humanLabels>>["labels"];

async function creditOf(trace: Trace, query: CreditQuery, preset: WeightPreset, groups: Map<string, Promise<Trace[]>>, known?: Labels): Promise<CreditResponse> {
  const labels = known ?? (await humanLabels(trace.trace_id, query.judges)).labels;
  const needsGroup = (query.method === "grpo" || query.method === "gigpo") && trace.group_id !== undefined;
  let group: { trace: Trace; labels: Labels }[] = [];
  if (needsGroup) {
    const key = trace.group_id!;
    if (!groups.has(key)) groups.set(key, loadGroup(key));
    group = await Promise.all((await groups.get(key)!).map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id, query.judges)).labels })));
  }
  return computeCredit(trace, { method: query.method, preset, normalize: query.normalize, group, labels });
}

function groupTooSmall(query: CreditQuery, error: GroupTooSmallError): ApiError {
  return new ApiError(422, "group_too_small", `${query.method} needs a group of at least 2 traces sharing the trace's group_id: ${error.message}`);
}

/** `w.cost=-0.5` style words for weights the request overrides (they belong in the title of what is shown). */
function overridesText(query: CreditQuery): string {
  const entries = Object.entries(query.overrides);
  return entries.length > 0 ? ` · ${entries.map(([f, w]) => `w.${f}=${w}`).join(", ")}` : "";
}

/** One trace with its credit under the query, as the builders take it. */
export async function creditedTraceOf(traceId: string, query: CreditQuery): Promise<CreditedTrace> {
  const preset = await presetOf(query);
  const trace = await loadTrace(traceId);
  try {
    return creditedTrace(trace, await creditOf(trace, query, preset, new Map()));
  } catch (error) {
    if (error instanceof GroupTooSmallError) throw groupTooSmall(query, error);
    throw error;
  }
}

/** `GET /api/traces/{id}/heatmap`: agent x time or event x family of one trace. */
export async function traceHeatmap(traceId: string, heatmap: TraceHeatmapQuery, query: CreditQuery): Promise<HeatmapModel> {
  const credited = await creditedTraceOf(traceId, query);
  const model = heatmap.kind === "agent-time" ? buildAgentTimeHeatmap(credited, heatmap.buckets) : buildEventFamilyHeatmap(credited, { offset: heatmap.offset, limit: heatmap.limit });
  return { ...model, subtitle: model.subtitle + overridesText(query) };
}

/**
 * `GET /api/heatmap?kind=role-family`: role x family over the traces of a
 * filter, oldest first, at most `max_traces` of them (the notes say how
 * many matched). Each trace's role sums are kept per credit setting and
 * read back while its labels and the preset's weights are unchanged
 * (./role-sums.ts). grpo/gigpo skip traces without a group of 2 or more.
 */
export async function roleFamilyHeatmap(filter: TraceFilter, heatmap: RoleHeatmapQuery, query: CreditQuery): Promise<HeatmapModel> {
  const preset = await presetOf(query);
  const where = traceWhere(filter);
  // the oldest max_traces (the created_at index, read no further than they are), and when there
  // may be more, how many matched while their sums are read: from the metric summaries' cells when
  // the filter is on their grain (exact counts), else an index-only count
  const rows = await readPrepared<{ id: number; trace_id: string }>(Prisma.sql`SELECT t.id, t.trace_id FROM traces t ${where} ORDER BY t.created_at, t.id LIMIT ${heatmap.max_traces}`);
  const cells = summaryWhere(filter);
  const count = cells ? Prisma.sql`SELECT coalesce(sum(c.traces), 0)::int AS n FROM summary_cells c ${cells}` : Prisma.sql`SELECT count(*)::int AS n FROM traces t ${where}`;
  const matching = rows.length < heatmap.max_traces ? Promise.resolve(rows.length) : readPrepared<{ n: number }>(count).then((r) => r[0]!.n);
  matching.catch(() => {});
  const skipped: string[] = [];
  let traces: TraceRoleSums[];
  if (keepsRoleSums(query)) traces = (await roleSumsOfTraces(rows, query, preset)).sums;
  else {
    // group methods and overridden weights: every trace's credit computed here, the traces read in
    // one batch (three queries for all of them) and their labels side by side
    const loaded = await loadTracesById(rows.map((r) => r.id));
    const ordered = rows.flatMap((r) => loaded.get(r.id) ?? []);
    const labels = await Promise.all(ordered.map(async (trace) => (await humanLabels(trace.trace_id, query.judges)).labels));
    const groups = new Map<string, Promise<Trace[]>>();
    traces = [];
    for (const [i, trace] of ordered.entries()) {
      try {
        traces.push(roleSumsOf(creditedTrace(trace, await creditOf(trace, query, preset, groups, labels[i]))));
      } catch (error) {
        if (!(error instanceof GroupTooSmallError)) throw error;
        skipped.push(trace.trace_id);
      }
    }
  }
  const notes: string[] = [];
  const matched = await matching;
  if (matched > rows.length) notes.push(`The ${rows.length} oldest of ${matched} matching traces (max_traces=${heatmap.max_traces}).`);
  if (skipped.length > 0) notes.push(`${skipped.length} trace(s) skipped: ${query.method} needs a group of at least 2 (${skipped.join(", ")}).`);
  const model = buildRoleFamilyHeatmap({
    traces,
    credit: { method: query.method, preset: preset.name, weights: { ...preset.weights }, normalize: query.method === "ccp" && query.normalize, r_total: null },
    scope: describeFilter(filter),
    notes,
  });
  return { ...model, subtitle: model.subtitle + overridesText(query) };
}
