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
export const GET = endpoint(traceGraph, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ request, params: { id }, query }) => {
    switch (query.part) {
      case "meta":
        return graphMeta(id);
      case "events": {
        // prebuilt JSON text: the biggest answer of the API is never parsed and written again; a stored page is kept gzipped.
        // It is unzipped here: Next drops a route's own Content-Encoding and compresses the body itself (send-response.js)
        const page = await graphEventsJson(id, query.from, query.limit);
        return new Response("json" in page ? page.json : gunzipSync(page.gz), { headers: { "content-type": "application/json" } });
      }
      case "credit":
        return graphCredit(id, parseCreditQuery(new URL(request.url).searchParams), query);
    }
  },
});
