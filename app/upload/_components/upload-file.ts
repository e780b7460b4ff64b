import { z } from "zod";
import { csrfHeaders } from "@/lib/api/csrf";
import { SNIFF_BYTES, unsupportedInput } from "@/lib/ingest/sniff";

const problem = z.object({ path: z.string(), message: z.string() });
const okResponse = z.object({
  traces: z.array(z.object({ id: z.number(), trace_id: z.string(), events: z.number(), edges: z.number(), warnings: z.array(problem) })),
});
const errorResponse = z.object({ error: z.object({ code: z.string(), message: z.string(), details: z.array(problem) }) });

export type UploadOutcome =
  | { ok: true; traces: z.infer<typeof okResponse>["traces"] }
  | { ok: false; message: string; details: z.infer<typeof problem>[] };

const mb = (bytes: number) => `${(bytes / 1048576).toLocaleString("en", { maximumFractionDigits: 1 })} MB`;

/**
 * Posts one file to the ingest API (JSONL by extension or content) and reads
 * the answer. A file over the server's body limit, or one that is empty,
 * binary or a CSV, is refused here before any byte is sent.
 */
export async function uploadFile(file: File, upsert: boolean, format: string, maxBytes: number): Promise<UploadOutcome> {
  if (file.size > maxBytes) {
    const message = `the file is ${mb(file.size)}, over this server's upload limit of ${mb(maxBytes)} (BATON_MAX_BODY_MB); nothing was sent. Load it with npm run ingest -- ${file.name} (it streams files of any size)`;
    return { ok: false, message, details: [] };
  }
  const refused = unsupportedInput(file.name, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()), file.size);
  if (refused) return { ok: false, message: refused, details: [] };
  const query = new URLSearchParams({ format, name: file.name, upsert: upsert ? "1" : "0" });
  try {
    // POST /api/import: the same ingest path as /api/traces, after the adapter of the chosen (or detected) format
    const response = await fetch(`/api/import?${query.toString()}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", ...csrfHeaders() },
      body: file,
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
