import { z } from "zod";
import { FAMILIES } from "@/lib/trace/types";

/** SPEC.md section 5: trace-level task_success labels are 0 or 1 wherever they are written. */
export const TASK_SUCCESS_LABEL_MESSAGE = "trace-level task_success labels are 0 (failure) or 1 (success)";

export function isValidTaskSuccessLabel(eventId: string | null | undefined, family: string, value: number): boolean {
  return Boolean(eventId) || family !== "task_success" || value === 0 || value === 1;
}

/** Body of `POST /api/traces/{id}/annotations` (SPEC.md sections 5 and 7). */
export const annotationInput = z
  .strictObject({
    event_id: z.string().min(1).max(512).nullable().optional(),
    family: z.enum(FAMILIES),
    value: z.number().finite().min(-1, "must be in [-1, 1]").max(1, "must be in [-1, 1]"),
    comment: z.string().max(10_000).nullable().optional(),
  })
  .refine((a) => isValidTaskSuccessLabel(a.event_id, a.family, a.value), { message: TASK_SUCCESS_LABEL_MESSAGE, path: ["value"] });
export type AnnotationInput = z.infer<typeof annotationInput>;

/** An annotation as the API returns it. */
export const apiAnnotation = z.object({
  id: z.number(),
  event_id: z.string().nullable(),
  family: z.string(),
  value: z.number(),
  comment: z.string().nullable(),
  annotator: z.string(),
  /** true for a label that came with an imported file (kept under an imported annotator of that name, never an account) */
  imported: z.boolean(),
  updated_at: z.string(),
});
export type ApiAnnotation = z.infer<typeof apiAnnotation>;
