import "server-only";
import { createdRange, type DashboardFilter } from "@/lib/dashboard/query";
import type { TraceFilter } from "./trace-filter";

/** The dashboard's URL filter (inclusive days) as the SQL filter (a [from, to) range), limited to what the caller may read. */
export function toTraceFilter(q: DashboardFilter, readable: string[] | null): TraceFilter {
  const { from: _from, to: _to, ...rest } = q;
  return { ...rest, ...createdRange(q), ...(readable !== null && { readable }) };
}
