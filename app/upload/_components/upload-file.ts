import { readAnswer, type ApiResult } from "@/lib/api/client";
import type { Output } from "@/lib/api/contract";
import type { importFile } from "@/lib/api/contracts/traces";
import { csrfHeaders } from "@/lib/api/csrf";
import { SNIFF_BYTES, unsupportedInput } from "@/lib/ingest/sniff";

export type UploadOutcome = ApiResult<Output<typeof importFile>>;

const mb = (bytes: number) => `${(bytes / 1048576).toLocaleString("en", { maximumFractionDigits: 1 })} MB`;

/**
 * Posts one file to the ingest API (JSONL by extension or content) and reads
 * the answer. A file over the server's body limit, or one that is empty,
 * binary or a CSV, is refused here before any byte is sent.
 */
export async function uploadFile(file: File, upsert: boolean, format: string, maxBytes: number): Promise<UploadOutcome> {
  if (file.size > maxBytes) {
    const message = `the file is ${mb(file.size)}, over this server's upload limit of ${mb(maxBytes)} (BATON_MAX_BODY_MB); nothing was sent. Load it with npm run ingest -- ${file.name} (it streams files of any size)`;
    return { ok: false, status: 0, code: "payload_too_large", message, issues: [] };
  }
  const refused = unsupportedInput(file.name, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()), file.size);
  if (refused) return { ok: false, status: 0, code: "unsupported_file", message: refused, issues: [] };
  const query = new URLSearchParams({ format, name: file.name, upsert: upsert ? "1" : "0" });
  try {
    // POST /api/import: the same ingest path as /api/traces, after the adapter of the chosen (or detected) format
    const response = await fetch(`/api/import?${query.toString()}`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream", ...csrfHeaders() },
      body: file,
    });
    const answer = await readAnswer<Output<typeof importFile>>(response);
    if (answer.ok || answer.code === "bad_response") return answer;
    return { ...answer, message: `${response.status}: ${answer.message}` };
  } catch (error) {
    return { ok: false, status: 0, code: "network", message: `upload failed: ${(error as Error).message}`, issues: [] };
  }
}
