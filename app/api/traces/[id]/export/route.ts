import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { exportedText, exportTraceRecords, groupTooSmall, parseExportRequest, textStream, type ExportedTrace } from "@/lib/server/compute/export";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/export?format=jsonl|transitions|strict|extended&content=&method=&preset=&normalize=&w.<f>= (SPEC.md section 6).
 * Parameters are checked and the trace computed before the first byte; the text is then streamed.
 * `x-baton-form` says what the rows are: `transitions`, or `rows` (event rows: also what
 * `format=transitions` gives for a trace without model calls), or `document`.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const req = await parseExportRequest(new URL(request.url).searchParams);
  const { row } = await authorizeTrace(request, id, "read");
  let exported: ExportedTrace;
  try {
    exported = await exportTraceRecords(row.traceId, req);
  } catch (error) {
    throw groupTooSmall(error, req.credit.method) ?? error;
  }
  const safeName = row.traceId.replace(/[^A-Za-z0-9._-]+/g, "_");
  const tabular = exported.form !== "document";
  const headers: Record<string, string> = {
    "content-type": tabular ? "application/x-ndjson; charset=utf-8" : "application/json; charset=utf-8",
    "content-disposition": `attachment; filename="${safeName}.${tabular ? `${exported.form}.jsonl` : `${req.format}.json`}"`,
    "x-baton-form": exported.form,
  };
  if (req.format === "transitions" && exported.form === "rows") headers["x-baton-note"] = "this trace has no model calls: its event rows are exported instead";
  return new Response(textStream(exportedText(exported)[Symbol.iterator]()), { headers });
});
