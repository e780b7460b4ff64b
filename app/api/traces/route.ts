import { ingestTraces, listTraces as listContract } from "@/lib/api/contracts/traces";
import { parseJsonBody, parseJsonLines } from "@/lib/ingest/parse";
import { authorize, permittedProjects, readableProjects } from "@/lib/server/auth/access";
import { ApiError, invalid } from "@/lib/server/errors";
import { endpoint, reply } from "@/lib/server/endpoint";
import { maxBodyBytes, readBodyLimited } from "@/lib/server/http";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { listTraces, projectsWritten } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

const JSON_TYPES = new Set(["application/json"]);
const JSONL_TYPES = new Set(["application/x-ndjson", "application/jsonl", "application/x-jsonlines"]);

/** GET /api/traces: the trace list, filtered, newest first, cursor-paged. */
export const GET = endpoint(listContract, {
  // the query is checked before access (a bad filter is a 400 for anyone)
  handle: async ({ request, query }) => listTraces(query, await readableProjects(request)),
});

/** POST /api/traces: one trace, an array of traces, or JSONL; all or nothing. */
export const POST = endpoint(ingestTraces, {
  access: (request) => authorize(request, "ingest"),
  handle: async ({ request, query }) => {
    const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const jsonl = JSONL_TYPES.has(type);
    if (!jsonl && !JSON_TYPES.has(type)) {
      throw new ApiError(415, "unsupported_media_type", `send application/json or application/x-ndjson, not "${type || "no content type"}"`);
    }
    const upsert = ["1", "true"].includes(query.upsert ?? "");
    const text = await readBodyLimited(request, maxBodyBytes());
    // nesting is checked by the trace parser (lib/ingest/parse.ts), with the path where the limit is passed
    const parsed = jsonl ? parseJsonLines(text) : parseJsonBody(text);
    if (!parsed.ok) throw invalid(parsed.problems, parsed.problems[0]!.message.startsWith("malformed") ? "malformed JSON" : "no traces in the body");
    // every project the body writes to must allow ingest; on upsert, so must the project of every trace it replaces
    for (const project of projectsWritten(parsed.records)) await authorize(request, "ingest", project);
    const traces = await ingestRecords(parsed.records, {
      upsert, mayReplace: await permittedProjects(request, "ingest"), mayAdjudicate: await permittedProjects(request, "admin"),
    });
    return reply({ traces }, { status: 201 });
  },
});
