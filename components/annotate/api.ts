import { z } from "zod";
import { csrfHeaders } from "@/lib/api/csrf";

/** The labeling views' calls to the API (JSON in, zod-checked JSON out). */

const annotation = z.object({ id: z.number(), event_id: z.string().nullable(), family: z.string(), value: z.number(), comment: z.string().nullable(), annotator: z.string(), updated_at: z.string() });
export type SavedAnnotation = z.infer<typeof annotation>;

export interface LabelWrite {
  event_id: string | null;
  family: string;
  value: number;
  comment?: string | null;
}

async function failure(response: Response): Promise<Error> {
  const body: unknown = await response.json().catch(() => null);
  const message = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
  return new Error(message.success ? message.data.error.message : `HTTP ${response.status}`);
}

const url = (traceId: string) => `/api/traces/${encodeURIComponent(traceId)}/annotations`;

export async function postLabel(traceId: string, label: LabelWrite): Promise<SavedAnnotation> {
  const response = await fetch(url(traceId), { method: "POST", headers: { "content-type": "application/json", ...csrfHeaders() }, body: JSON.stringify(label) });
  if (!response.ok) throw await failure(response);
  return annotation.parse(await response.json());
}

/** Removes the caller's own current value of a unit and family (undo of a first label). */
export async function deleteLabel(traceId: string, unit: { event_id: string | null; family: string }): Promise<void> {
  const query = new URLSearchParams({ family: unit.family, ...(unit.event_id && { event_id: unit.event_id }) });
  const response = await fetch(`${url(traceId)}?${query}`, { method: "DELETE", headers: csrfHeaders() });
  if (!response.ok) throw await failure(response);
}

export async function fetchLabels(traceId: string, mine: boolean): Promise<SavedAnnotation[]> {
  const response = await fetch(`${url(traceId)}${mine ? "?mine=1" : ""}`);
  if (!response.ok) return [];
  return z.object({ annotations: z.array(annotation) }).parse(await response.json()).annotations;
}
