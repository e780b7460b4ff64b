import { callRaw, type ApiResult } from "@/lib/api/client";
import type { Output } from "@/lib/api/contract";
import { importFile } from "@/lib/api/contracts/traces";
import type { AdapterFormat } from "@/lib/adapters/types";
import { SNIFF_BYTES, unsupportedInput } from "@/lib/ingest/sniff";

export type UploadOutcome = ApiResult<Output<typeof importFile>>;
/** "auto" (detect from the content) or one of the adapters' formats: the options of the page's format menu. */
export type UploadFormat = "auto" | AdapterFormat;

const mb = (bytes: number) => `${(bytes / 1048576).toLocaleString("en", { maximumFractionDigits: 1 })} MB`;

/**
 * Posts one file to the ingest API (JSONL by extension or content) and reads
 * the answer. A file over the server's body limit, or one that is empty,
 * binary or a CSV, is refused here before any byte is sent.
 */
export async function uploadFile(file: File, upsert: boolean, format: UploadFormat, maxBytes: number): Promise<UploadOutcome> {
  if (file.size > maxBytes) {
    const message = `the file is ${mb(file.size)}, over this server's upload limit of ${mb(maxBytes)} (BATON_MAX_BODY_MB); nothing was sent. Load it with npm run ingest -- ${file.name} (it streams files of any size)`;
    return { ok: false, status: 0, code: "payload_too_large", message, issues: [] };
  }
  const refused = unsupportedInput(file.name, new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()), file.size);
  if (refused) return { ok: false, status: 0, code: "unsupported_file", message: refused, issues: [] };
  // POST /api/import: the same ingest path as /api/traces, after the adapter of the chosen (or detected) format
  const answer = await callRaw(importFile, { query: { format, name: file.name, upsert: upsert ? "1" : "0" } }, file, "application/octet-stream");
  if (answer.ok) return answer;
  if (answer.code === "network") return { ...answer, message: answer.message.replace(/^request failed/, "upload failed") };
  if (answer.code === "bad_response") return answer;
  return { ...answer, message: `${answer.status}: ${answer.message}` };
}
