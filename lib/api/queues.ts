import { z } from "zod";
import { DECISIONS, EVENT_TYPES, FAMILIES } from "@/lib/trace/types";
import { isValidTaskSuccessLabel, TASK_SUCCESS_LABEL_MESSAGE } from "./annotations";
import { decisiveErrorInput } from "./decisive-errors";

/** Which units a queue holds: events (or whole traces) of traces matching the trace filters. */
export const queueFilter = z.strictObject({
  unit: z.enum(["event", "trace"]).default("event"),
  /** only these traces */
  trace_ids: z.array(z.string().min(1).max(512)).min(1).max(100_000).optional(),
  system: z.string().min(1).max(512).optional(),
  task_id: z.string().min(1).max(512).optional(),
  group_id: z.string().min(1).max(512).optional(),
  /** E1 of the trace: 0 = failed traces, 1 = successful */
  e1: z.union([z.literal(0), z.literal(1)]).optional(),
  verdict: z.enum(["premature", "late", "unknown", "ok"]).optional(),
  event_types: z.array(z.enum(EVENT_TYPES)).min(1).optional(),
  decision: z.enum(DECISIONS).optional(),
  /** only tool calls whose direct tool_result has status "error" */
  tool_result_error: z.boolean().optional(),
  /** at most this many items (oldest traces first) */
  limit: z.number().int().min(1).max(100_000).default(5_000),
});
export type QueueFilter = z.infer<typeof queueFilter>;

/** A queue's filter as stored and answered (`GET /api/queues/{id}`): as written, without defaults (filters written before `unit` and `limit` existed lack them). */
export const storedQueueFilter = queueFilter.extend({ unit: z.enum(["event", "trace"]).optional(), limit: z.number().int().min(1).max(100_000).optional() });

/**
 * How a queue hands out its items: `trace` (oldest trace first, in event
 * order) or `judge_disagreement` (units where the project's judges disagree
 * most, then where they are least certain, first; units no judge labelled
 * last). See docs/judges.md.
 */
export const QUEUE_ORDERS = ["trace", "judge_disagreement"] as const;
export type QueueOrder = (typeof QUEUE_ORDERS)[number];

/**
 * What a queue asks of each unit: reward families (SPEC.md section 2) and
 * `decisive_error`, the trace's decisive error (section 5), asked of whole
 * traces only.
 */
export const DECISIVE_ERROR_TARGET = "decisive_error";
export const QUEUE_TARGETS = [...FAMILIES, DECISIVE_ERROR_TARGET] as const;

export const queueTargets = z.array(z.enum(QUEUE_TARGETS)).min(1).refine((f) => new Set(f).size === f.length, "families repeat");

export const DECISIVE_NEEDS_TRACE_UNITS = 'the decisive error is asked of whole traces: set the unit to "trace"';

export const queueInput = z.strictObject({
  project: z.string().min(1).max(512).default("default"),
  name: z.string().trim().min(1).max(200),
  families: queueTargets,
  annotators_per_item: z.number().int().min(1).max(20).default(1),
  blind: z.boolean().default(true),
  reservation_seconds: z.number().int().min(30).max(86_400).default(900),
  /** e-mail addresses of the annotators */
  assignees: z.array(z.string().min(1).max(254)).min(1).max(1000),
  filter: queueFilter,
  order: z.enum(QUEUE_ORDERS).default("trace"),
}).refine((q) => !q.families.includes(DECISIVE_ERROR_TARGET) || q.filter.unit === "trace", { message: DECISIVE_NEEDS_TRACE_UNITS, path: ["families"] });
export type QueueInput = z.infer<typeof queueInput>;

/**
 * A queue item's answer: labels of the unit's families and, on a queue that
 * asks for it, the trace's decisive error (optional when the annotator
 * already named theirs, e.g. with `w` on the work page).
 */
export const submitInput = z.strictObject({
  labels: z.array(z.strictObject({ family: z.enum(FAMILIES), value: z.number().finite().min(-1).max(1), comment: z.string().max(10_000).optional() })).default([]),
  decisive_error: decisiveErrorInput.optional(),
});

export const adjudicationInput = z
  .strictObject({
    trace_id: z.string().min(1).max(512),
    event_id: z.string().min(1).max(512).nullable().default(null),
    family: z.enum(FAMILIES),
    value: z.number().finite().min(-1).max(1),
  })
  .refine((a) => isValidTaskSuccessLabel(a.event_id, a.family, a.value), { message: TASK_SUCCESS_LABEL_MESSAGE, path: ["value"] });

/** Trace ids as pasted into the create page: one per line, or separated by commas or spaces (any mix, repeats kept once, in order). */
export function splitTraceIds(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/u).filter(Boolean))];
}
