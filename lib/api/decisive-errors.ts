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
export interface ApiDecisiveError {
  event_id: string;
  agent: string;
  reason: string | null;
  annotator: string;
  /** a dataset's ground truth or an imported export, not a person with an account here */
  imported: boolean;
  updated_at: string;
}

/** `GET /api/traces/{id}/decisive-error`. */
export interface DecisiveErrorsResponse {
  version: string;
  trace_id: string;
  /** the adjudicated event, else the one most annotators name (SPEC.md section 6); null when none */
  decisive_event: string | null;
  decisive_agent: string | null;
  labels: ApiDecisiveError[];
  adjudication: (Omit<ApiDecisiveError, "annotator" | "imported"> & { adjudicator: string | null }) | null;
}
