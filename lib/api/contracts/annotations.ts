import { z } from "zod";
import type { EventContext, TraceContext } from "@/lib/annotate/unit";
import { labelRowsQuery, type LabelRowsPage } from "@/lib/annotate/rows";
import type { FamilyValues } from "@/lib/judges/unit-values";
import { FAMILIES } from "@/lib/trace/types";
import { annotationInput, apiAnnotation } from "../annotations";
import { defineEndpoint, idParams, sameType } from "../contract";
import { eventHead } from "../shapes";

/** Labels of a trace and what the labeling views read beside them (SPEC.md sections 5 and 7). */

export const listAnnotations = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations",
  params: idParams,
  query: z.object({ mine: z.string().optional() }),
  output: z.object({ annotations: z.array(apiAnnotation) }),
  errors: ["not_found"],
});

export const saveAnnotation = defineEndpoint({
  method: "POST",
  path: "/api/traces/{id}/annotations",
  params: idParams,
  body: annotationInput,
  output: apiAnnotation,
  errors: ["not_found"],
});

export const deleteAnnotation = defineEndpoint({
  method: "DELETE",
  path: "/api/traces/{id}/annotations",
  params: idParams,
  query: z.object({ family: z.enum(FAMILIES), event_id: z.string().min(1).optional() }),
  output: z.object({ deleted: z.object({ event_id: z.string().nullable(), family: z.enum(FAMILIES) }) }),
  errors: ["not_found"],
});

const unitEvent = z.strictObject({
  ...eventHead,
  tokens: z.number().nullable(),
  content: z.string().nullable(),
  content_length: z.number().nullable(),
});
const message = z.strictObject({
  role: z.string(),
  content: z.string(),
  tool_calls: z.array(z.strictObject({ id: z.string().nullable(), name: z.string(), arguments: z.string() })).optional(),
  tool_call_id: z.string().optional(),
});
const definitionPart = z.strictObject({ text: z.string(), source: z.string() });

/** What an annotator sees of an event unit (lib/annotate/unit.ts). */
export const eventContextShape = z.strictObject({
  unit: z.literal("event"),
  trace_id: z.string(),
  event: unitEvent,
  call: z.strictObject({ id: z.string(), agent: z.string(), model: z.string().nullable(), input: z.array(message), output: message, events: z.array(z.string()) }).nullable().optional(),
  read: z.array(unitEvent.extend({ edge: z.string() })),
  read_more: z.number(),
  results: z.array(unitEvent),
});
sameType<z.output<typeof eventContextShape>, EventContext>();

/** What an annotator sees of a whole trace. */
export const traceContextShape = z.strictObject({
  unit: z.literal("trace"),
  trace_id: z.string(),
  task_id: z.string(),
  system: z.string().nullable(),
  events: z.number(),
  task: z.string().nullable(),
  task_source: z.string().nullable(),
  reference: definitionPart.nullable(),
  policy: definitionPart.nullable(),
  fields: z.array(z.strictObject({ label: z.string(), source: z.string(), text: z.string().nullable() })),
  final_answer: unitEvent.nullable(),
  agents: z.array(z.strictObject({ agent: z.string(), events: z.number(), first_seq: z.number(), last_seq: z.number() })),
  timeline: z.array(z.strictObject({ seq: z.number(), id: z.string(), agent: z.string(), type: z.string(), summary: z.string() })),
  timeline_gap: z.number(),
});
sameType<z.output<typeof traceContextShape>, TraceContext>();

/** A page of the label view's rows (lib/annotate/rows.ts). */
export const labelRowsPage = z.strictObject({
  total: z.number(),
  terminal: z.number(),
  stop: z.number().nullable(),
  from: z.number(),
  next: z.number().nullable(),
  rows: z.array(z.strictObject({ id: z.string(), type: z.string(), agent: z.string(), summary: z.string(), step: z.number().nullable() })),
});
sameType<z.output<typeof labelRowsPage>, LabelRowsPage>();

/** What stands behind a unit's value in credit, per family (lib/judges/unit-values.ts). */
export const familyValues = z.strictObject({
  family: z.string(),
  people: z.strictObject({ count: z.number(), mean: z.number().nullable(), adjudicated: z.number().nullable() }),
  judges: z.array(z.strictObject({ judge: z.string(), value: z.number(), reason: z.string().nullable(), model: z.string(), at: z.string() })),
  in_credit: z.enum(["adjudication", "people", "judges", "none"]),
  value: z.number().nullable(),
});
sameType<z.output<typeof familyValues>, FamilyValues>();

const unitQuery = z.object({ event: z.string().min(1).max(512).optional() });

export const annotationContext = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/context",
  params: idParams,
  query: unitQuery,
  output: z.discriminatedUnion("unit", [eventContextShape, traceContextShape]),
  errors: ["not_found"],
});

export const annotationRows = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/rows",
  params: idParams,
  query: labelRowsQuery,
  output: labelRowsPage,
  errors: ["not_found"],
});

export const annotationValues = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/values",
  params: idParams,
  query: unitQuery,
  output: z.object({ event_id: z.string().nullable(), families: z.array(familyValues) }),
  errors: ["not_found"],
});
