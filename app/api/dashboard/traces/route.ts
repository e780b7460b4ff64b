import { decimalInt } from "@/lib/api/params";
import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { describeBar, metricOf, parseBar } from "@/lib/dashboard";
import { dashboardFilterShape } from "@/lib/dashboard/query";
import { readableProjects } from "@/lib/server/auth/access";
import { ApiError } from "@/lib/server/errors";
import { parseQuery, route } from "@/lib/server/http";
import { barTraces, dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";

export const dynamic = "force-dynamic";

const query = z
  .strictObject({ ...dashboardFilterShape, bar: z.string().max(600), limit: decimalInt(1, 1000).default(100) })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["to"] });

/** GET /api/dashboard/traces?bar=<key>&<filter>&limit=: the traces behind one bar of the dashboard. */
export const GET = route(async (request: Request) => {
  const { bar: key, limit, ...filter } = parseQuery(query, searchParamsObject(new URL(request.url).searchParams));
  const bar = parseBar(key);
  const invalid = () => new ApiError(400, "invalid_parameter", `no bar "${key}"`, [{ path: "bar", message: "not a bar of the dashboard (see docs/api.md)" }]);
  if (bar === null) throw invalid();
  const traceFilter = toTraceFilter(filter, await readableProjects(request));
  const model = await dashboardModel(traceFilter);
  const result = await barTraces(traceFilter, bar, model, limit);
  if (result === null) throw invalid();
  const binLabel = bar.kind === "bin" ? model.histograms.find((h) => h.metric === bar.metric)?.bars[bar.index]?.label : undefined;
  return Response.json({ bar: key, title: describeBar(bar, (m) => metricOf(m)?.label ?? m, binLabel), limit, ...result });
});
