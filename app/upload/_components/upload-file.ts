import { z } from "zod";
import { csrfHeaders } from "@/lib/api/csrf";

const problem = z.object({ path: z.string(), message: z.string() });
const okResponse = z.object({
  traces: z.array(z.object({ id: z.number(), trace_id: z.string(), events: z.number(), edges: z.number(), warnings: z.array(problem) })),
});
const errorResponse = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.array(problem) }) });

export type UploadOutcome =
  | { ok: true; traces: z.infer<typeof okResponse>["traces"] }
  | { ok: false; message: string; details: z.infer<typeof problem>[] };

/** Posts one file to the ingest API (JSONL by extension or content) and reads the answer. */
export async function uploadFile(file: File, upsert: boolean, format: string): Promise<UploadOutcome> {
  const text = await file.text();
  const query = new URLSearchParams({ format, name: file.name, upsert: upsert ? "1" : "0" });
  try {
    // POST /api/import: the same ingest path as /api/traces, after the adapter of the chosen (or detected) format
    const response = await fetch(`/api/import?${query.toString()}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", ...csrfHeaders() },
      body: text,
    });
    const body: unknown = await response.json();
    const ok = okResponse.safeParse(body);
    if (response.ok && ok.success) return { ok: true, traces: ok.data.traces };
    const failed = errorResponse.safeParse(body);
    if (failed.success) return { ok: false, message: `${response.status}: ${failed.data.error.message}`, details: failed.data.error.details };
    return { ok: false, message: `unexpected answer (${response.status})`, details: [] };
  } catch (error) {
    return { ok: false, message: `upload failed: ${(error as Error).message}`, details: [] };
  }
}
