import { z } from "zod";
import { BEST, METHODS } from "@/lib/blame";
import { roleHeatmapQuery, traceHeatmapQuery } from "@/lib/heatmap/query";
import type { CreditResponse } from "@/lib/credit";
import type { GroupView } from "@/lib/decisions/view";
import type { TraceDiagnostics } from "@/lib/hacking/types";
import type { HeatmapModel } from "@/lib/heatmap/types";
import { defineEndpoint, idParams, wire } from "../contract";
import { filterText } from "../params";
import { creditParams } from "./traces";

/**
 * Analyses of one trace or of many: blame, credit, hacking diagnostics,
 * heatmaps, GRPO groups and exports (SPEC.md sections 3, 6 and 10). Credit's
 * own parameters (method, preset, normalize, judges, `w.<family>`) and the
 * export's are read by their parsers (lib/server/compute), which answer 400
 * invalid_parameter with each parameter's name.
 */

export const traceBlame = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/blame",
  params: idParams,
  // a judge's stored attributions are `judge:<judge name>:<mode>`
  query: z.strictObject({
    method: z.union([z.enum([BEST, ...METHODS.map((m) => m.name)]), z.string().regex(/^judge:.+:(all_at_once|binary_search|step_by_step)$/)]).default(BEST),
    limit: z.coerce.number().int().min(1).max(100_000).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  }),
  /** 200 with the ranking (events and agents ranked, rank 1 the decisive error), or 202 `{retry_after_s}` while a model is trained or a big trace ranked in the background */
  output: wire<object>(),
  errors: ["not_found", "not_applicable"],
});

export const traceCredit = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/credit",
  params: idParams,
  query: creditParams,
  output: wire<CreditResponse & { judges: string }>(),
  errors: ["not_found", "group_too_small"],
});

export const traceDiagnostics = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/diagnostics",
  params: idParams,
  output: wire<{ version: string; trace_id: string } & TraceDiagnostics>(),
  errors: ["not_found"],
});

export const traceHeatmap = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/heatmap",
  params: idParams,
  query: traceHeatmapQuery,
  output: wire<HeatmapModel>(),
  errors: ["not_found", "group_too_small"],
});

export const roleHeatmap = defineEndpoint({
  method: "GET",
  path: "/api/heatmap",
  query: roleHeatmapQuery,
  output: wire<HeatmapModel>(),
  errors: [],
});

/** An export's own parameters beside credit's (lib/server/compute/export.ts checks them as sent). */
const exportParams = creditParams.extend({ format: z.string().optional(), content: z.string().optional(), parquet: z.string().optional() });

export const traceExport = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/export",
  params: idParams,
  query: exportParams,
  output: z.unknown(),
  rawOutput: "JSONL rows (application/x-ndjson), one JSON document, or Parquet; `x-baton-form` says which",
  errors: ["not_found", "group_too_small", "busy"],
});

export const datasetExport = defineEndpoint({
  method: "GET",
  path: "/api/export",
  /** the export's parameters and the trace list's filters (lib/api/filters.ts) */
  query: exportParams,
  output: z.unknown(),
  rawOutput: "JSONL streamed a trace at a time (a last line `{error}` when it fails part-way), or Parquet",
  errors: ["busy"],
});

export const groupView = defineEndpoint({
  method: "GET",
  path: "/api/groups/{group_id}",
  params: z.strictObject({ group_id: filterText }),
  output: wire<GroupView>(),
  errors: ["not_found"],
});
