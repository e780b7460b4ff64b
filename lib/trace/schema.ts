import { z } from "zod";
import { DECISIONS, EDGE_TYPES, EVENT_TYPES, FAMILIES, STOP_REASONS, TOPOLOGIES } from "./types";

/**
 * zod schemas for one incoming trace: the paper's JSON Schema
 * (trace-schema/trace_schema.json) plus Baton's extensions (SPEC.md section 1).
 * Structural rules (unique ids, edges to existing events, cycles) live in
 * validate.ts, because they need the whole trace.
 */

const nonNegative = z.number().finite().min(0, "must be >= 0");
const rewardValue = z.number().finite().min(-1, "must be in [-1, 1]").max(1, "must be in [-1, 1]");

/** Fields the paper's event schema names, plus Baton's event extensions. */
export const eventSchema = z
  .object({
    id: z.string().min(1),
    t: nonNegative,
    type: z.enum(EVENT_TYPES),
    agent: z.string().min(1),
    role: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    tool: z.string().optional(),
    content_ref: z.string().optional(),
    trusted: z.boolean().optional(),
    t_end: nonNegative.optional(),
    content: z.string().optional(),
    tokens: nonNegative.optional(),
    status: z.string().optional(),
    decision: z.enum(DECISIONS).optional(),
    reason: z.enum(STOP_REASONS).optional(),
    rewards: z.partialRecord(z.enum(FAMILIES), rewardValue).optional(),
  })
  .catchall(z.unknown());

export const edgeSchema = z.strictObject({
  src: z.string().min(1),
  dst: z.string().min(1),
  type: z.enum(EDGE_TYPES),
});

export const traceSchema = z.strictObject({
  trace_id: z.string().min(1),
  task_id: z.string().min(1),
  system: z.string().optional(),
  topology: z.enum(TOPOLOGIES).optional(),
  group_id: z.string().min(1).optional(),
  project: z.string().min(1).max(200).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  events: z.array(eventSchema).min(1, "a trace needs at least one event"),
  edges: z.array(edgeSchema),
  rewards: z.record(z.string(), z.number().finite()),
  costs: z
    .object({ tokens: nonNegative, wall_clock_s: nonNegative })
    .catchall(nonNegative),
  metrics: z.record(z.string(), z.number().finite()).optional(),
});

export type TraceInput = z.infer<typeof traceSchema>;
