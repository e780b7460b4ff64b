import { LIST_FILTER_KEYS, searchParamsObject, traceListQuery } from "@/lib/api/filters";
import { GroupTooSmallError } from "@/lib/credit";
import { readableProjects } from "@/lib/server/auth/access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { EXPORT_FORMATS, exportTrace, type ExportFormat } from "@/lib/server/compute/export";
import { ApiError } from "@/lib/server/errors";
import { parseQuery, route } from "@/lib/server/http";
import { listTraces } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/**
 * GET /api/export?format=&<trace list filters>&method=&preset=&normalize=:
 * every matching trace, streamed as JSONL (rows for `jsonl`, one trace per
 * line for `strict` / `extended`), a trace at a time so memory stays flat.
 */
export const GET = route(async (request: Request) => {
  const search = new URL(request.url).searchParams;
  const format = (search.get("format") ?? "jsonl") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new ApiError(400, "invalid_parameter", "invalid format", [{ path: "format", message: `one of ${EXPORT_FORMATS.join(", ")}` }]);
  const credit = parseCreditQuery(search);
  const filterParams = Object.fromEntries(Object.entries(searchParamsObject(search)).filter(([k]) => (LIST_FILTER_KEYS as readonly string[]).includes(k)));
  const filter = parseQuery(traceListQuery, { ...filterParams, limit: "100" });
  const readable = await readableProjects(request);
  let cursor: string | undefined;
  let done = false;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return controller.close();
      const page = await listTraces({ ...filter, cursor }, readable);
      for (const t of page.traces) {
        const text = await exportTrace(t.trace_id, format, credit).catch((error: unknown) => {
          // a grpo/gigpo export skips traces without a group rather than failing the whole dataset
          if (error instanceof GroupTooSmallError) return "";
          throw error;
        });
        if (text) controller.enqueue(encoder.encode(format === "jsonl" ? text : `${text}\n`));
      }
      cursor = page.next_cursor ?? undefined;
      done = page.next_cursor === null;
    },
  });
  return new Response(stream, {
    headers: { "content-type": "application/x-ndjson; charset=utf-8", "content-disposition": `attachment; filename="baton-export-${format}.jsonl"` },
  });
});
