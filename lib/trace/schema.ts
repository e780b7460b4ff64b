import { z } from "zod";
import { MAX_CALLS, modelCallSchema } from "./calls";
import { extendedAdjudicationSchema, extendedAnnotationSchema } from "./extended-labels";
import { extendedDecisiveAdjudicationSchema, extendedDecisiveErrorSchema } from "./decisive-errors";
import { MAX_ID_LENGTH, MAX_MAGNITUDE } from "./limits";
import { EDGE_TYPES, EVENT_TYPES, FAMILIES, TOPOLOGIES } from "./types";

/**
 * zod schemas for one incoming trace: the paper's JSON Schema
 * (trace-schema/trace_schema.json) plus Baton's extensions (SPEC.md section 1).
 * Structural rules (unique ids, edges to existing events, cycles) and the
 * lenient warnings (unknown decision, reason, reward keys) live in
 * validate.ts, because they need the whole trace.
 */

/** Every number of a trace: finite, magnitude at most 1e15. */
const number = z
  .number()
  .finite()
  .refine((x) => Math.abs(x) <= MAX_MAGNITUDE, `magnitude must be at most ${MAX_MAGNITUDE}`);
const nonNegative = number.refine((x) => x >= 0, "must be >= 0");
const FAMILY_SET: ReadonlySet<string> = new Set(FAMILIES);

/** Event reward values of a family are in [-1, 1]; other keys are only numbers. */
function familyRange(rewards: Record<string, number>, ctx: z.RefinementCtx) {
  for (const [key, value] of Object.entries(rewards)) {
    if (FAMILY_SET.has(key) && (value < -1 || value > 1)) ctx.addIssue({ code: "custom", path: [key], message: "must be in [-1, 1]" });
  }
}
/** An identifier: at most 512 characters. */
const id = z.string().max(MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters`);
const requiredId = id.min(1);

/** Any JSON value (metadata); its strings are already cleaned and its depth checked by cleanJson. */
const jsonValue = z.unknown().refine((v) => v !== undefined, "must be a JSON value");

/** An event's rewards, as ingested and as read back from events.rewards. */
export const eventRewardsSchema = z.record(z.string(), number).superRefine(familyRange);
/** An event's properties outside the schema, as read back from events.extra. */
export const eventExtraSchema = z.record(z.string(), z.unknown());

/** Fields the paper's event schema names, plus Baton's event extensions. */
export const eventSchema = z
  .object({
    id: requiredId,
    t: nonNegative,
    type: z.enum(EVENT_TYPES),
    agent: requiredId,
    role: id.optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    tool: id.optional(),
    content_ref: id.optional(),
    trusted: z.boolean().optional(),
    t_end: nonNegative.optional(),
    content: z.string().optional(),
    tokens: nonNegative.optional(),
    // indexed (events by status): a longer value would make PostgreSQL refuse the whole trace with its own message
    status: id.optional(),
    // any string is kept: validate.ts warns about values outside SPEC.md's lists
    decision: z.string().optional(),
    reason: z.string().optional(),
    // family keys must be in [-1, 1]; other keys are kept with a warning (validate.ts)
    rewards: eventRewardsSchema.optional(),
  })
  .catchall(z.unknown());

export const edgeSchema = z.strictObject({
  src: requiredId,
  dst: requiredId,
  type: z.enum(EDGE_TYPES),
});

export const traceSchema = z.strictObject({
  trace_id: requiredId,
  task_id: requiredId,
  system: id.optional(),
  topology: z.enum(TOPOLOGIES).optional(),
  group_id: requiredId.optional(),
  project: requiredId.optional(),
  metadata: jsonValue.optional(),
  events: z.array(eventSchema).min(1, "a trace needs at least one event"),
  edges: z.array(edgeSchema),
  rewards: z.record(z.string(), number),
  // SPEC.md section 1: no cost is negative (the paper itself only requires it of these four)
  costs: z
    .object({ tokens: nonNegative, wall_clock_s: nonNegative, tool_calls: nonNegative.optional(), messages: nonNegative.optional() })
    .catchall(nonNegative),
  metrics: z.record(z.string(), number).optional(),
  // the run's model calls (SPEC.md section 6): prompts, answers and the events each produced
  calls: z.array(modelCallSchema).max(MAX_CALLS, `at most ${MAX_CALLS} model calls`).optional(),
  // the extended form's human labels (SPEC.md section 6), restored on import
  annotations: z.array(extendedAnnotationSchema).optional(),
  adjudications: z.array(extendedAdjudicationSchema).optional(),
  // the extended form's decisive errors (SPEC.md sections 5, 6), restored on import
  decisive_errors: z.array(extendedDecisiveErrorSchema).optional(),
  decisive_error_adjudication: extendedDecisiveAdjudicationSchema.optional(),
  // the extended form's hacking flags (docs/metrics.md): derived, so accepted and recomputed on import, never trusted
  hacking_flags: z.array(z.string().max(64)).max(64).optional(),
});
