import { z } from "zod";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";

/**
 * Body of `PUT /api/traces/{id}/decisive-error` and of its adjudication
 * (SPEC.md section 5): the event after which the run could no longer
 * succeed; `agent` defaults to the event's own agent.
 */
export const decisiveErrorInput = z.strictObject({
  event_id: z.string().min(1).max(MAX_ID_LENGTH),
  agent: z.string().trim().min(1).max(MAX_ID_LENGTH).optional(),
  reason: z.string().max(10_000).nullable().optional(),
});
export type DecisiveErrorInput = z.infer<typeof decisiveErrorInput>;

/** One annotator's current decisive error, as the API returns it. */
export const apiDecisiveError = z.object({
  event_id: z.string(),
  agent: z.string(),
  reason: z.string().nullable(),
  annotator: z.string(),
  /** a dataset's ground truth or an imported export, not a person with an account here */
  imported: z.boolean(),
  updated_at: z.string(),
});
export type ApiDecisiveError = z.infer<typeof apiDecisiveError>;

/** `GET /api/traces/{id}/decisive-error`. */
export const decisiveErrorsResponse = z.object({
  version: z.string(),
  trace_id: z.string(),
  /** the adjudicated event, else the one most annotators name (SPEC.md section 6); null when none */
  decisive_event: z.string().nullable(),
  decisive_agent: z.string().nullable(),
  labels: z.array(apiDecisiveError),
  adjudication: apiDecisiveError.omit({ annotator: true, imported: true }).extend({ adjudicator: z.string().nullable() }).nullable(),
});
export type DecisiveErrorsResponse = z.infer<typeof decisiveErrorsResponse>;
