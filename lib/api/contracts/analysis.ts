import { z } from "zod";
import { BEST, JUDGED_METHODS, METHODS } from "@/lib/blame";
import { roleHeatmapQuery, traceHeatmapQuery } from "@/lib/heatmap/query";
import { CREDIT_METHODS, type CreditResponse } from "@/lib/credit";
import type { GroupView } from "@/lib/decisions/view";
import { DIAGNOSTICS_VERSION, TRACE_DETECTORS, type TraceDiagnostics } from "@/lib/hacking/types";
import { HEATMAP_KINDS, type HeatmapModel } from "@/lib/heatmap/types";
import { EVENT_TYPES, FAMILIES } from "@/lib/trace/types";
import { defineEndpoint, idParams, sameType } from "../contract";
import { confirmedSuspect } from "../replay";
import { filterText } from "../params";
import { byFamily, e1Value, specVersion, successRate } from "../shapes";
import { creditParams } from "./traces";

/**
 * Analyses of one trace or of many: blame, credit, hacking diagnostics,
 * heatmaps, GRPO groups and exports (SPEC.md sections 3, 6 and 10). Credit's
 * own parameters (method, preset, normalize, judges, `w.<family>`) and the
 * export's are read by their parsers (lib/server/compute), which answer 400
 * invalid_parameter with each parameter's name.
 */

const axisItem = z.strictObject({ key: z.string(), label: z.string(), detail: z.string() });

/** The ready-to-draw heatmap (lib/heatmap/types.ts). */
export const heatmapModel = z.strictObject({
  version: specVersion,
  kind: z.enum(HEATMAP_KINDS),
  title: z.string(),
  subtitle: z.string(),
  row_label: z.string(),
  column_label: z.string(),
  value_label: z.string(),
  count_label: z.string(),
  rows: z.array(axisItem),
  columns: z.array(axisItem),
  cells: z.array(z.array(z.strictObject({ value: z.number().nullable(), n: z.number(), refs: z.array(z.strictObject({ trace_id: z.string(), event_ids: z.array(z.string()) })) }))),
  domain: z.tuple([z.number(), z.number()]),
  ticks: z.array(z.number()),
  credit: z.strictObject({ method: z.enum(CREDIT_METHODS), preset: z.string(), weights: byFamily(z.number()), normalize: z.boolean(), r_total: z.number().nullable() }),
  trace_id: z.string().nullable(),
  page: z.strictObject({ offset: z.number(), limit: z.number(), total: z.number() }),
  notes: z.array(z.string()),
});
sameType<z.output<typeof heatmapModel>, HeatmapModel>();

/** `GET /api/traces/{id}/credit` (lib/credit/index.ts CreditResponse) with the judges credit used. */
export const creditResponse = z.strictObject({
  version: specVersion,
  method: z.enum(CREDIT_METHODS),
  preset: z.string(),
  weights: byFamily(z.number()),
  normalize: z.boolean(),
  r_total: z.number(),
  families: byFamily(z.number().nullable()),
  events: z.array(z.strictObject({ id: z.string(), total: z.number(), by_family: z.partialRecord(z.enum(FAMILIES), z.number()) })),
});
sameType<z.output<typeof creditResponse>, CreditResponse>();

const detectorResult = z.strictObject({ value: z.number().nullable(), threshold: z.number(), flagged: z.boolean(), events: z.array(z.string()) });

/** One trace's hacking diagnostics (lib/hacking/types.ts). */
export const traceDiagnosticsShape = z.strictObject({
  diagnostics_version: z.literal(DIAGNOSTICS_VERSION),
  detectors: z.record(z.enum(TRACE_DETECTORS), detectorResult),
  flags: z.array(z.enum(TRACE_DETECTORS)),
});
sameType<z.output<typeof traceDiagnosticsShape>, TraceDiagnostics>();

const groupEvent = z.strictObject({
  id: z.string(),
  step: z.number(),
  t: z.number(),
  t_end: z.number().nullable(),
  type: z.enum(EVENT_TYPES),
  agent: z.string(),
  role: z.string().nullable(),
  key: z.string(),
  status: z.string().nullable(),
});
const choiceCount = z.strictObject({ choice: z.string(), rollouts: z.number() });

/** The group view (lib/decisions/view.ts). */
export const groupViewShape = z.strictObject({
  version: specVersion,
  group_id: z.string(),
  preset: z.string(),
  clock: z.enum(["seconds", "steps"]),
  rollouts_total: z.number(),
  e1: successRate,
  rollouts: z.array(
    z.strictObject({
      trace_id: z.string(),
      task_id: z.string(),
      system: z.string().nullable(),
      project: z.string(),
      policy_version: z.string().nullable(),
      e1: e1Value,
      r_total: z.number(),
      r_total_parts: z.array(z.strictObject({ family: z.enum(FAMILIES), weight: z.number(), value: z.number(), contribution: z.number() })),
      advantage: z.number().nullable(),
      start: z.number(),
      choices: z.array(z.string()),
      events: z.array(groupEvent),
    }),
  ),
  divergence: z
    .strictObject({
      step: z.number(),
      success_keys: z.array(z.string()),
      failure_keys: z.array(z.string()),
      marks: z.array(z.strictObject({ trace_id: z.string(), side: z.enum(["success", "failure"]), event_id: z.string().nullable(), key: z.string(), distinct: z.boolean() })),
    })
    .nullable(),
  decisions: z.strictObject({ success_only: z.array(choiceCount), failure_only: z.array(choiceCount) }),
});
sameType<z.output<typeof groupViewShape>, GroupView>();

const chosenMethod = z.union([
  z.strictObject({ by: z.literal("cross-validated step accuracy"), project: z.string(), system: z.string().nullable().optional(), as_of: z.string(), note: z.string().optional() }),
  z.strictObject({ by: z.literal("default"), reason: z.string() }),
]);

/** 200 of `GET /api/traces/{id}/blame` as lib/server/blame/rank.ts builds it (before `confirmed_by_replay` is added). */
export const blameResponse = z.strictObject({
  version: specVersion,
  method: z.string(),
  /** for method=best: how the method was chosen */
  chosen: chosenMethod.optional(),
  /**
   * learned methods: on how many labelled traces, when; `held_out` when this trace has a decisive error, which was left out;
   * `source` "project" (the project's own labelled traces) or "default" (the model shipped with Baton, lib/blame/default-model.json);
   * `pending` when the model for the labels as they are now is being trained in the background (this one is older, or the shipped one)
   */
  trained: z.strictObject({ traces: z.number(), at: z.string(), held_out: z.boolean(), source: z.enum(["project", "default"]), pending: z.literal(true).optional() }).optional(),
  /** events and agents the trace has (the ranking ranks them all; `events` and `agents` are the page asked for) */
  total_events: z.number(),
  total_agents: z.number(),
  /** the page: the ranking's events (and agents) from `offset`, at most `limit` of each */
  offset: z.number(),
  events: z.array(z.strictObject({ id: z.string(), agent: z.string(), rank: z.number(), score: z.number(), signals: z.record(z.string(), z.number()) })),
  agents: z.array(z.strictObject({ agent: z.string(), rank: z.number(), score: z.number() })),
});
export type BlameResponse = z.infer<typeof blameResponse>;

/** 202: the answer is being made in the background (a model trained, a big trace ranked); ask again after `retry_after_s`. */
export const blamePending = z.strictObject({
  version: specVersion,
  method: z.string(),
  state: z.enum(["training", "ranking"]),
  reason: z.string(),
  retry_after_s: z.number(),
  chosen: chosenMethod.optional(),
});
export type BlamePending = z.infer<typeof blamePending>;

export const traceBlame = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/blame",
  params: idParams,
  // a judge's stored attributions are `judge:<judge name>:<mode>`
  query: z.strictObject({
    method: z.union([z.enum([BEST, ...METHODS.map((m) => m.name), ...JUDGED_METHODS.map((m) => m.name)]), z.string().regex(/^judge:.+:(all_at_once|binary_search|step_by_step)$/)]).default(BEST),
    limit: z.coerce.number().int().min(1).max(100_000).optional(),
    offset: z.coerce.number().int().min(0).max(100_000).default(0),
  }),
  /** 200 with the ranking (events and agents ranked, rank 1 the decisive error), or 202 `{retry_after_s}` while a model is trained or a big trace ranked in the background */
  output: z.union([blameResponse.extend({ confirmed_by_replay: z.array(confirmedSuspect) }), blamePending]),
  errors: ["not_found", "not_applicable"],
});

export const traceCredit = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/credit",
  params: idParams,
  query: creditParams,
  output: creditResponse.extend({ judges: z.string() }),
  errors: ["not_found", "group_too_small"],
});

export const traceDiagnostics = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/diagnostics",
  params: idParams,
  output: traceDiagnosticsShape.extend({ version: z.string(), trace_id: z.string() }),
  errors: ["not_found"],
});

export const traceHeatmap = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/heatmap",
  params: idParams,
  query: traceHeatmapQuery,
  output: heatmapModel,
  errors: ["not_found", "group_too_small"],
});

export const roleHeatmap = defineEndpoint({
  method: "GET",
  path: "/api/heatmap",
  query: roleHeatmapQuery,
  output: heatmapModel,
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
  output: groupViewShape,
  errors: ["not_found"],
});
