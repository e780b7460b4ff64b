import { dashboardBarTraces } from "@/lib/api/contracts/aggregates";
import { describeBar, metricOf, parseBar } from "@/lib/dashboard";
import { readableProjects } from "@/lib/server/auth/access";
import { ApiError } from "@/lib/server/errors";
import { endpoint } from "@/lib/server/endpoint";
import { barTraces, dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";

export const dynamic = "force-dynamic";


/** GET /api/dashboard/traces?bar=<key>&<filter>&limit=: the traces behind one bar of the dashboard. */
export const GET = endpoint(dashboardBarTraces, {
  handle: async ({ request, query: { bar: key, limit, ...filter } }) => {
    const bar = parseBar(key);
    const invalid = () => new ApiError(400, "invalid_parameter", `no bar "${key}"`, [{ path: "bar", message: "not a bar of the dashboard (see docs/api.md)" }]);
    if (bar === null) throw invalid();
    const traceFilter = toTraceFilter(filter, await readableProjects(request));
    const model = await dashboardModel(traceFilter);
    const result = await barTraces(traceFilter, bar, model, limit);
    if (result === null) throw invalid();
    const binLabel = bar.kind === "bin" ? model.histograms.find((h) => h.metric === bar.metric)?.bars[bar.index]?.label : undefined;
    return { bar: key, title: describeBar(bar, (m) => metricOf(m)?.label ?? m, binLabel), limit, ...result };
  },
});
