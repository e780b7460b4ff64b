import { z } from "zod";
import { QUEUE_ORDERS, queueFilter, queueTargets } from "./queues";

/** Body of `POST /api/queues/preview`: how many items a filter would give, before creating the queue. */
export const queuePreviewInput = z.strictObject({ project: z.string().min(1).default("default"), filter: queueFilter });

/** Body of `PATCH /api/queues/{id}` (project admin): rename, change families, N or blindness; close or reopen. */
export const queuePatchInput = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  families: queueTargets.optional(),
  annotators_per_item: z.number().int().min(1).max(20).optional(),
  blind: z.boolean().optional(),
  closed: z.boolean().optional(),
  /** re-orders the items (lib/api/queues.ts QUEUE_ORDERS) */
  order: z.enum(QUEUE_ORDERS).optional(),
});

/** Body of `POST /api/queues/{id}/items/{itemId}/skip` (optional): why the item was skipped. */
export const skipInput = z.strictObject({ reason: z.string().trim().max(500).optional() });

/** Skip reasons offered with keys 1-4 (free text too). */
export const SKIP_REASONS = ["cannot judge: content missing or unreadable", "outside my expertise", "ambiguous task", "duplicate of another item"] as const;
