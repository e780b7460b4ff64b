import { z } from "zod";
import { csrfHeaders } from "@/lib/api/csrf";

/** The labeling page's calls to the API (JSON in, zod-checked JSON out). */

const annotation = z.object({ id: z.number(), event_id: z.string().nullable(), family: z.string(), value: z.number(), comment: z.string().nullable(), annotator: z.string(), updated_at: z.string() });
export type SavedAnnotation = z.infer<typeof annotation>;

export interface LabelWrite {
  event_id: string | null;
  family: string;
  value: number;
}

export async function postLabel(traceId: string, label: LabelWrite): Promise<SavedAnnotation> {
  const response = await fetch(`/api/traces/${encodeURIComponent(traceId)}/annotations`, {
    method: "POST",
    headers: { "content-type": "application/json", ...csrfHeaders() },
    body: JSON.stringify(label),
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = z.object({ error: z.object({ message: z.string() }) }).safeParse(body);
    throw new Error(message.success ? message.data.error.message : `HTTP ${response.status}`);
  }
  return annotation.parse(body);
}

export async function fetchMyLabels(traceId: string): Promise<SavedAnnotation[]> {
  const response = await fetch(`/api/traces/${encodeURIComponent(traceId)}/annotations?mine=1`);
  if (!response.ok) return [];
  return z.object({ annotations: z.array(annotation) }).parse(await response.json()).annotations;
}

const creditBody = z.object({ events: z.array(z.object({ id: z.string(), total: z.number() })) });

export async function fetchCredit(traceId: string, preset: string): Promise<Record<string, number>> {
  const response = await fetch(`/api/traces/${encodeURIComponent(traceId)}/credit?method=ccp&preset=${encodeURIComponent(preset)}`);
  if (!response.ok) throw new Error(`credit: HTTP ${response.status}`);
  return Object.fromEntries(creditBody.parse(await response.json()).events.map((e) => [e.id, e.total]));
}
