import { gunzipSync } from "node:zlib";
import { traceGraph } from "@/lib/api/contracts/traces";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { endpoint } from "@/lib/server/endpoint";
import { graphCredit, graphEventsJson, graphMeta } from "@/lib/server/queries/graph";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/graph?part=meta|events|credit: the graph view's data
 * as columns with string tables, paged by event window (see
 * lib/graph-view/wire.ts and components/trace-graph/README.md).
 */
/** Whether the client takes a gzip body (`Accept-Encoding: gzip`, not refused with q=0). */
function acceptsGzip(request: Request): boolean {
  return (request.headers.get("accept-encoding") ?? "").split(",").some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    return (coding === "gzip" || coding === "*") && !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p));
  });
}

export const GET = endpoint(traceGraph, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ request, params: { id }, query }) => {
    switch (query.part) {
      case "meta":
        return graphMeta(id);
      case "events": {
        // prebuilt JSON text: the biggest answer of the API is never parsed and written again; a stored page is gzipped already
        const page = await graphEventsJson(id, query.from, query.limit);
        if ("json" in page) return new Response(page.json, { headers: { "content-type": "application/json" } });
        if (acceptsGzip(request)) return new Response(new Uint8Array(page.gz), { headers: { "content-type": "application/json", "content-encoding": "gzip", vary: "Accept-Encoding" } });
        return new Response(gunzipSync(page.gz).toString("utf8"), { headers: { "content-type": "application/json", vary: "Accept-Encoding" } });
      }
      case "credit":
        return graphCredit(id, parseCreditQuery(new URL(request.url).searchParams), query);
    }
  },
});
