import { call, type ApiResult } from "@/lib/api/client";
import type { ApiAnnotation, AnnotationInput } from "@/lib/api/annotations";
import type { Family } from "@/lib/trace/types";
import { deleteAnnotation, listAnnotations, saveAnnotation } from "@/lib/api/contracts/annotations";

/** The labeling views' calls to the API (lib/api/contracts/annotations.ts), each answering an ApiResult. */

/** A label as the views hold it: the family is the view's text (the server refuses one it does not know, 400 with its path). */
export interface LabelWrite {
  event_id: string | null;
  family: string;
  value: number;
  comment?: string | null;
}

const asInput = (label: LabelWrite): AnnotationInput => ({ ...label, family: label.family as Family });

export function postLabel(traceId: string, label: LabelWrite): Promise<ApiResult<ApiAnnotation>> {
  return call(saveAnnotation, { params: { id: traceId }, body: asInput(label) });
}

/** Removes the caller's own current value of a unit and family (undo of a first label). */
export function deleteLabel(traceId: string, unit: Pick<LabelWrite, "event_id" | "family">): Promise<ApiResult<unknown>> {
  return call(deleteAnnotation, { params: { id: traceId }, query: { family: unit.family as Family, ...(unit.event_id && { event_id: unit.event_id }) } });
}

/** The trace's current labels (`mine`: only the caller's); none when they cannot be read. */
export async function fetchLabels(traceId: string, mine: boolean): Promise<ApiAnnotation[]> {
  const result = await call(listAnnotations, { params: { id: traceId }, query: mine ? { mine: "1" } : {} });
  return result.ok ? result.data.annotations : [];
}
