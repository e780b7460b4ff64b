import { z } from "zod";
import { defineEndpoint } from "../contract";
import { eventHead } from "../shapes";
import { decimalNumber } from "../params";
import { queuePatchInput, queuePreviewInput, skipInput } from "../queue-edit";
import { adjudicationInput, queueInput, storedQueueFilter, submitInput } from "../queues";

/** Annotation queues: building, editing, progress and agreement, and the work of taking, submitting and skipping items (docs/api.md). */

const queueParams = z.object({ id: z.string() });
const itemParams = z.object({ id: z.string(), itemId: z.string() });

/** The item an annotator holds, with what the work page shows of it. */
export const queueItem = z.object({
  id: z.number(),
  position: z.number(),
  trace_id: z.string(),
  event_id: z.string().nullable(),
  reserved_until: z.string(),
  task_id: z.string().optional(),
  system: z.string().nullable().optional(),
  /** the queue's families that this unit anchors (all of them for a whole trace) */
  families: z.array(z.string()),
  /** the queue asks for this trace's decisive error */
  decisive_error: z.boolean(),
  /** events in the trace (the decisive-error unit lists them) */
  event_count: z.number(),
  event: z
    .object({
      ...eventHead,
      content: z.string().nullable(),
    })
    .nullable(),
  /** other annotators' values (empty on a blind queue) */
  others: z.array(z.object({ family: z.string(), value: z.number(), annotator: z.string() })),
});
export type QueueItem = z.infer<typeof queueItem>;

const progress = { items: z.number(), complete: z.number(), skipped: z.number(), pending: z.number() };

export const listQueues = defineEndpoint({
  method: "GET",
  path: "/api/queues",
  output: z.object({ queues: z.array(z.object({ id: z.number(), name: z.string(), families: z.array(z.string()), annotators_per_item: z.number(), blind: z.boolean(), ...progress })) }),
  errors: [],
});

export const createQueue = defineEndpoint({
  method: "POST",
  path: "/api/queues",
  body: queueInput,
  output: z.object({ queue: z.object({ id: z.number(), name: z.string(), items: z.number() }) }),
  errors: ["conflict"],
});

export const previewQueue = defineEndpoint({
  method: "POST",
  path: "/api/queues/preview",
  body: queuePreviewInput,
  output: z.object({ items: z.number() }),
  errors: [],
});

export const getQueue = defineEndpoint({
  method: "GET",
  path: "/api/queues/{id}",
  params: queueParams,
  output: z.object({
    id: z.number(),
    name: z.string(),
    project: z.string(),
    families: z.array(z.string()),
    annotators_per_item: z.number(),
    blind: z.boolean(),
    closed: z.boolean(),
    /** one of QUEUE_ORDERS (lib/api/queues.ts) */
    order: z.string(),
    filter: storedQueueFilter,
    ...progress,
    people: z.array(z.object({ user_id: z.number(), name: z.string(), email: z.string(), done: z.number(), skipped: z.number() })),
    /** Krippendorff's alpha per family; for decisive_error the share of traces on which people agree */
    agreement: z.array(
      z.object({ family: z.string(), alpha: z.number().nullable(), units: z.number(), same_event: z.number().nullable().optional(), same_agent: z.number().nullable().optional() }),
    ),
  }),
  errors: ["not_found"],
});

export const editQueue = defineEndpoint({
  method: "PATCH",
  path: "/api/queues/{id}",
  params: queueParams,
  body: queuePatchInput,
  output: z.object({
    queue: z.object({ id: z.number(), name: z.string(), families: z.array(z.string()), annotators_per_item: z.number(), blind: z.boolean(), closed: z.boolean(), order: z.string() }),
  }),
  errors: ["not_found", "conflict"],
});

const unitValues = { trace_id: z.string(), event_id: z.string().nullable(), family: z.string(), values: z.array(z.object({ annotator: z.string(), value: z.number() })) };
const named = z.object({ event_id: z.string(), agent: z.string() });

export const queueDisagreements = defineEndpoint({
  method: "GET",
  path: "/api/queues/{id}/disagreements",
  params: queueParams,
  query: z.object({ threshold: decimalNumber(0, 2).default(0.5) }),
  output: z.object({
    threshold: z.number(),
    units: z.array(z.object({ ...unitValues, spread: z.number(), adjudicated: z.number().nullable() })),
    decisive_errors: z.array(
      z.object({
        trace_id: z.string(),
        labels: z.array(z.object({ annotator: z.string(), imported: z.boolean(), event_id: z.string(), agent: z.string(), reason: z.string().nullable() })),
        events: z.array(named),
        adjudicated: named.nullable(),
      }),
    ),
  }),
  errors: ["not_found"],
});

/** The queue is closed (an admin may reopen it): nothing is handed out or taken. */
export const QUEUE_CLOSED = "queue_closed";

export const nextQueueItem = defineEndpoint({
  method: "POST",
  path: "/api/queues/{id}/next",
  params: queueParams,
  output: z.object({ item: queueItem.nullable() }),
  errors: ["not_found", QUEUE_CLOSED],
});

export const submitQueueItem = defineEndpoint({
  method: "POST",
  path: "/api/queues/{id}/items/{itemId}/submit",
  params: itemParams,
  body: submitInput,
  output: z.object({ next: queueItem.nullable() }),
  errors: ["not_found", "conflict", QUEUE_CLOSED],
});

export const skipQueueItem = defineEndpoint({
  method: "POST",
  path: "/api/queues/{id}/items/{itemId}/skip",
  params: itemParams,
  body: skipInput,
  bodyOptional: true,
  output: z.object({ next: queueItem.nullable() }),
  errors: ["not_found", "conflict", QUEUE_CLOSED],
});

/** `POST /api/adjudications`: a project admin's final value of a unit. */
export const adjudicate = defineEndpoint({
  method: "POST",
  path: "/api/adjudications",
  body: adjudicationInput,
  output: z.object({ trace_id: z.string(), event_id: z.string().nullable(), family: z.string(), value: z.number(), updated_at: z.string() }),
  errors: ["not_found"],
});
