import { z } from "zod";
import type { EventContext, TraceContext } from "@/lib/annotate/unit";
import { labelRowsQuery, type LabelRowsPage } from "@/lib/annotate/rows";
import type { FamilyValues } from "@/lib/judges/unit-values";
import { FAMILIES } from "@/lib/trace/types";
import { annotationInput, apiAnnotation } from "../annotations";
import { defineEndpoint, idParams, wire } from "../contract";

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

const unitQuery = z.object({ event: z.string().min(1).max(512).optional() });

export const annotationContext = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/context",
  params: idParams,
  query: unitQuery,
  output: wire<EventContext | TraceContext>(),
  errors: ["not_found"],
});

export const annotationRows = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/rows",
  params: idParams,
  query: labelRowsQuery,
  output: wire<LabelRowsPage>(),
  errors: ["not_found"],
});

export const annotationValues = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/annotations/values",
  params: idParams,
  query: unitQuery,
  output: z.object({ event_id: z.string().nullable(), families: z.array(wire<FamilyValues>()) }),
  errors: ["not_found"],
});
