import { isSimpleBodyType } from "@/lib/api/request-origin";
import { adapt, AdapterInputError, detectFormat, type SourceFormat } from "@/lib/adapters";
import { FIRST_BYTES } from "@/lib/adapters/detect";
import { looksLikeJsonLines, parseJsonBody, parseJsonLines, type TraceRecord } from "@/lib/ingest/parse";
import { SNIFF_BYTES, unsupportedInput } from "@/lib/ingest/sniff";
import { authorize, permittedProjects } from "@/lib/server/auth/access";
import { ApiError, invalid } from "@/lib/server/errors";
import { importFile } from "@/lib/api/contracts/traces";
import { endpoint, reply } from "@/lib/server/endpoint";
import { maxBodyBytes, readBytesLimited, rejectDeepJson } from "@/lib/server/http";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { projectsWritten } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** Other formats wrap a trace in more levels than ours (OTLP attributes, chat logs): a guard against stack overflows, not SPEC's 64. */
const OTHER_FORMATS_MAX_DEPTH = 256;

/**
 * POST /api/import?format=auto|baton|whowhen|marble|taubench|chatdev|agentops|otlp&name=<file name>:
 * one file's text in any supported format (the upload page's door), through
 * the adapters of `npm run ingest --format` into the same ingest path; all or nothing.
 */
export const POST = endpoint(importFile, {
  // the body type, then access, then the parameters as sent, then the bytes
  access: async (request) => {
    // a type a page on another site could post without a preflight (proxy.ts refuses it too, for every API write)
    if (isSimpleBodyType(request.headers.get("content-type"), true)) {
      throw new ApiError(415, "unsupported_media_type", "send the file as application/octet-stream (or application/json, application/x-ndjson), not a form or text/plain");
    }
    await authorize(request, "ingest");
  },
  handle: async ({ request, query: params }) => {
    const bytes = await readBytesLimited(request, maxBodyBytes());
    const refused = unsupportedInput(params.name, bytes.subarray(0, SNIFF_BYTES), bytes.length);
    if (refused) throw new ApiError(400, "unsupported_file", refused, [{ path: "$", message: refused }]);
    const text = new TextDecoder().decode(bytes);
    rejectDeepJson(text, OTHER_FORMATS_MAX_DEPTH);
    const format = params.format === "auto" ? (detectFormat(params.name, text.slice(0, FIRST_BYTES)) ?? "baton") : params.format;
    const records = format === "baton" ? batonRecords(params.name, text) : await adaptedRecords(format, params.name, text);
    const upsert = params.upsert === "1" || params.upsert === "true";
    for (const project of projectsWritten(records)) await authorize(request, "ingest", project);
    const traces = await ingestRecords(records, {
      upsert, mayReplace: await permittedProjects(request, "ingest"), mayAdjudicate: await permittedProjects(request, "admin"),
    });
    return reply({ format, traces }, { status: 201 });
  },
});

function batonRecords(name: string, text: string): TraceRecord[] {
  const lines = /\.(jsonl|ndjson)$/i.test(name) || looksLikeJsonLines(text);
  const parsed = lines ? parseJsonLines(text) : parseJsonBody(text);
  if (!parsed.ok) throw invalid(parsed.problems, parsed.problems[0]!.message.startsWith("malformed") ? "malformed JSON" : "no traces in the body");
  return parsed.records;
}

async function adaptedRecords(format: SourceFormat, name: string, text: string): Promise<TraceRecord[]> {
  const records: TraceRecord[] = [];
  try {
    for await (const trace of adapt(format, { path: name, content: text })) records.push({ base: `$[${records.length}]`, value: trace });
  } catch (error) {
    if (error instanceof AdapterInputError) {
      const details = error.details.map((d) => ({ path: /^\$[^:]*/.exec(d)?.[0] ?? "$", message: d }));
      throw new ApiError(400, "invalid_input", error.message, details.length > 0 ? details : [{ path: "$", message: error.message }]);
    }
    throw error;
  }
  if (records.length === 0) throw new ApiError(400, "invalid_input", "the file holds no runs", [{ path: "$", message: "no runs found" }]);
  return records;
}
