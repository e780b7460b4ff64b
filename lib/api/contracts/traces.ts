import { z } from "zod";
import type { GraphCreditPage, GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { graphQuery } from "@/lib/graph-view/query";
import { ADAPTER_FORMATS } from "@/lib/adapters/types";
import { ROLE, type RoleName } from "@/lib/metrics/roles";
import { VERDICTS, type TraceMetrics } from "@/lib/metrics/types";
import { EDGE_TYPES, EVENT_TYPES, STOP_REASONS } from "@/lib/trace/types";
import { defineEndpoint, idParams, sameType } from "../contract";
import { isStorableText } from "../text";
import { eventPageQuery, LIST_SORTS, traceListQuery } from "../filters";
import { byFamily, e1Value, specVersion } from "../shapes";

/** Traces: the list, one trace, its events, metrics and graph, ingest and delete (docs/api.md). */

/** A warning or problem with the JSON path it concerns (lib/trace/validate.ts Problem). */
export const problem = z.object({ path: z.string(), message: z.string() });

/** The computed metrics (lib/metrics/types.ts). */
export const traceMetricsShape = z.strictObject({
  version: specVersion,
  e1: e1Value,
  e2: z.strictObject({
    critical_steps: z.number(),
    step_parallelism: z.number(),
    busy_time: z.number(),
    makespan: z.number(),
    speedup: z.number().nullable(),
    max_concurrency: z.number(),
    efficiency: z.number().nullable(),
    useful_agent_utilization: z.number().nullable(),
  }),
  e3: z.strictObject({ message_redundancy: z.number().nullable(), dead_message_rate: z.number().nullable(), aggregate_diversity: z.number().nullable() }),
  e4: z.strictObject({ protocol_overhead: z.number(), error_amplification: z.number(), tainted_events: z.number(), terminal_tainted: z.boolean() }),
  stop: z.strictObject({
    stop_reason: z.enum(STOP_REASONS).nullable(),
    stop_t: z.number().nullable(),
    tail_events: z.number(),
    tail_tokens: z.number(),
    wasted_work_ratio: z.number(),
    verdict: z.enum(VERDICTS),
  }),
  reported: z.record(z.string(), z.number()),
});
sameType<z.output<typeof traceMetricsShape>, TraceMetrics>();

/** `part=meta` of the graph (lib/graph-view/wire.ts). */
export const graphMeta = z.strictObject({
  version: specVersion,
  trace_id: z.string(),
  events: z.number(),
  edges: z.number(),
  page_size: z.number(),
  pages: z.number(),
  event_types: z.array(z.enum(EVENT_TYPES)).readonly(),
  edge_types: z.array(z.enum(EDGE_TYPES)).readonly(),
  roles: z.record(z.enum(Object.keys(ROLE) as [RoleName, ...RoleName[]]), z.number()),
  lanes: z.array(z.strictObject({ agent: z.string(), role: z.string().nullable(), parent: z.number().nullable(), depth: z.number(), first_t: z.number(), last_t: z.number(), events: z.number() })),
  t_min: z.number(),
  t_max: z.number(),
  timed: z.boolean(),
  clock: z.enum(["seconds", "steps"]),
  terminal: z.number(),
  stop: z.number().nullable(),
});
sameType<z.output<typeof graphMeta>, GraphMeta>();

/** `part=events` of the graph. */
export const graphEventsPage = z.strictObject({
  version: specVersion,
  from: z.number(),
  count: z.number(),
  next: z.number().nullable(),
  id: z.array(z.string()),
  t: z.array(z.number()),
  t_end: z.array(z.number().nullable()),
  type: z.array(z.number()),
  lane: z.array(z.number()),
  roles: z.array(z.number()),
  label: z.array(z.string()),
  edges: z.strictObject({ src: z.array(z.number()), dst: z.array(z.number()), type: z.array(z.number()) }),
});
sameType<z.output<typeof graphEventsPage>, GraphEventsPage>();

/** `part=credit` of the graph. */
export const graphCreditPage = z.strictObject({
  version: specVersion,
  method: z.string(),
  preset: z.string(),
  weights: byFamily(z.number()),
  normalize: z.boolean(),
  r_total: z.number(),
  families: byFamily(z.number().nullable()),
  from: z.number(),
  count: z.number(),
  next: z.number().nullable(),
  total: z.array(z.number()),
  by_family: byFamily(z.array(z.number())).nullable(),
});
sameType<z.output<typeof graphCreditPage>, GraphCreditPage>();

/** A row of the trace list. */
export const traceListItem = z.object({
  id: z.number(),
  trace_id: z.string(),
  project: z.string(),
  task_id: z.string(),
  system: z.string().nullable(),
  topology: z.string().nullable(),
  group_id: z.string().nullable(),
  events: z.number(),
  edges: z.number(),
  e1: z.number().nullable(),
  reported_e1: z.number().nullable(),
  verdict: z.string().nullable(),
  created_at: z.string(),
  tokens: z.number().nullable(),
  cost: z.number().nullable(),
  duration: z.number().nullable(),
  clock: z.enum(["seconds", "steps"]),
  agents: z.number().nullable(),
  errors: z.number().nullable(),
  tainted_events: z.number().nullable(),
  flags: z.array(z.string()),
});
export type TraceListItem = z.infer<typeof traceListItem>;

export const listTraces = defineEndpoint({
  method: "GET",
  path: "/api/traces",
  query: traceListQuery,
  output: z.object({ traces: z.array(traceListItem), next_cursor: z.string().nullable(), prev_cursor: z.string().nullable(), order: z.enum(LIST_SORTS) }),
  errors: [],
});

export const ingestTraces = defineEndpoint({
  method: "POST",
  path: "/api/traces",
  query: z.object({ upsert: z.string().optional() }),
  rawBody: "application/json (a trace or an array of traces) or application/x-ndjson",
  output: z.object({
    traces: z.array(z.object({ id: z.number(), trace_id: z.string(), events: z.number(), edges: z.number(), warnings: z.array(problem), skipped: z.literal(true).optional() })),
  }),
  errors: ["conflict", "unstorable"],
});

/** An event as the API returns it: the paper's fields plus extensions (content with `content=1`). */
export const apiEvent = z.object({
  seq: z.number(),
  id: z.string(),
  t: z.number(),
  t_end: z.number().nullable(),
  type: z.string(),
  agent: z.string(),
  role: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  tool: z.string().nullable(),
  content_ref: z.string().nullable(),
  trusted: z.boolean().nullable(),
  tokens: z.number().nullable(),
  status: z.string().nullable(),
  decision: z.string().nullable(),
  reason: z.string().nullable(),
  rewards: z.record(z.string(), z.number()).nullable(),
  extra: z.record(z.string(), z.unknown()).nullable(),
  content_length: z.number().nullable(),
  content: z.string().nullable().optional(),
});

export const getTrace = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}",
  params: idParams,
  query: z.object({ content: z.string().optional() }),
  /** the trace in extended form (SPEC.md section 1), its events flat with their extensions */
  output: z.object({ trace_id: z.string(), events: z.array(z.object({ id: z.string() })), created_at: z.string(), warnings: z.array(problem) }),
  errors: ["not_found"],
});

export const deleteTrace = defineEndpoint({
  method: "DELETE",
  path: "/api/traces/{id}",
  params: idParams,
  output: z.object({ deleted: z.object({ trace_id: z.string(), annotations: z.number() }) }),
  errors: ["not_found", "conflict"],
});

export const traceEvents = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/events",
  params: idParams,
  query: eventPageQuery,
  output: z.object({ events: z.array(apiEvent), next_cursor: z.string().nullable() }),
  errors: ["not_found"],
});

export const traceMetrics = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/metrics",
  params: idParams,
  output: traceMetricsShape,
  errors: ["not_found"],
});

/**
 * `GET /api/traces/{id}/graph?part=meta|events|credit` (lib/graph-view/wire.ts).
 * The route reads credit's own parameters (method, preset, normalize,
 * judges, `w.<family>`) with the credit parser. The answer differs by
 * part; the browser reads credit pages through graphCreditPart, and the
 * event pages as bytes in the graph worker.
 */
export const traceGraph = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/graph",
  params: idParams,
  query: graphQuery,
  output: z.union([graphMeta, graphEventsPage, graphCreditPage]),
  errors: ["not_found"],
});

/**
 * Credit's parameters as the graph, credit, heatmap and export endpoints
 * read them (`w.<family>`: a weight override): typed here for callers; the
 * credit parser (lib/server/compute/credit.ts) checks them as sent, every
 * problem at once.
 */
export const creditParams = z
  .object({ method: z.string().optional(), preset: z.string().optional(), normalize: z.string().optional(), judges: z.string().optional() })
  .catchall(z.union([z.string(), z.number()]));

export const graphCreditPart = defineEndpoint({
  ...traceGraph,
  query: creditParams.extend({ part: z.literal("credit"), from: z.number().optional(), limit: z.number().optional(), families: z.enum(["0", "1"]).optional() }),
  output: graphCreditPage,
});

/** `POST /api/import?format=&name=&upsert=`: a file of any supported format (docs/adapters.md), converted and stored. */
export const importFile = defineEndpoint({
  method: "POST",
  path: "/api/import",
  query: z.object({
    format: z.enum(["auto", ...ADAPTER_FORMATS]).default("auto"),
    /** the file's name: detection and provenance read it */
    name: z.string().trim().min(1).max(500).refine(isStorableText, "must not contain U+0000 or a lone surrogate").default("upload.json"),
    upsert: z.enum(["0", "1", "true", "false"]).default("0"),
  }),
  rawBody: "the file's bytes (application/octet-stream, application/json or application/x-ndjson)",
  output: z.object({ format: z.string(), traces: ingestTraces.output.shape.traces }),
  errors: ["unsupported_file", "conflict", "unstorable"],
});
