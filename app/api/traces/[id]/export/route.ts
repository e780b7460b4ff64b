import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { EXPORT_FORMATS, exportTrace, type ExportFormat } from "@/lib/server/compute/export";
import { GroupTooSmallError } from "@/lib/credit";
import { ApiError } from "@/lib/server/errors";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/export?format=jsonl|strict|extended&method=&preset=&normalize=&w.<f>= (SPEC.md section 6). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const search = new URL(request.url).searchParams;
  const format = (search.get("format") ?? "jsonl") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new ApiError(400, "invalid_parameter", "invalid format", [{ path: "format", message: `one of ${EXPORT_FORMATS.join(", ")}` }]);
  const query = parseCreditQuery(search);
  const { row } = await authorizeTrace(request, id, "read");
  let body: string;
  try {
    body = await exportTrace(row.traceId, format, query);
  } catch (error) {
    if (error instanceof GroupTooSmallError) throw new ApiError(422, "group_too_small", `${query.method} needs a group of at least 2 traces sharing the trace's group_id`);
    throw error;
  }
  const safeName = row.traceId.replace(/[^A-Za-z0-9._-]+/g, "_");
  return new Response(body, {
    headers: {
      "content-type": format === "jsonl" ? "application/x-ndjson; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName}.${format === "jsonl" ? "jsonl" : `${format}.json`}"`,
    },
  });
});
