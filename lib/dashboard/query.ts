/**
 * The dashboard's URL state (and `GET /api/dashboard` query): the trace
 * filter with a created_at range, the bar whose traces are listed, and the
 * metric whose mean the trend charts draw beside E1.
 */
import { z } from "zod";
import { filterText } from "../api/params";
import { judgesParam } from "../judges/selection";
import { TOPOLOGIES } from "../trace/types";
import { METRIC_KEYS } from "./metrics";

const text = filterText.optional();
const day = z.string().refine((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "must be a date YYYY-MM-DD");

export const dashboardFilterShape = {
  project: text,
  system: text,
  task_id: text,
  group_id: text,
  topology: z.enum(TOPOLOGIES).optional(),
  /** First day included (UTC). */
  from: day.optional(),
  /** Last day included (UTC). */
  to: day.optional(),
};

const fromBeforeTo = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const rangeIssue = { message: "from must not be after to", path: ["to"] };

export const dashboardFilter = z.strictObject(dashboardFilterShape).refine(fromBeforeTo, rangeIssue);
export type DashboardFilter = z.infer<typeof dashboardFilter>;

/**
 * `GET /api/dashboard`'s query: the filter, then `judges` (E1 as GET
 * /api/metrics takes it), read only once the filter is valid so that a bad
 * filter is reported alone.
 */
export const dashboardApiQuery = z
  .strictObject({ ...dashboardFilterShape, judges: z.string().optional() })
  .refine(fromBeforeTo, rangeIssue)
  .transform(({ judges, ...filter }, ctx) => {
    const parsed = z.object({ judges: judgesParam }).safeParse({ judges });
    if (parsed.success) return { filter, judges: parsed.data.judges };
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });

export const DEFAULT_TREND_METRIC = "speedup";

/** The page's state: filter, selected bar, trend metric, judges (E1 from judges where no person labelled). */
export const dashboardPageQuery = z
  .object({ ...dashboardFilterShape, bar: z.string().max(600).optional(), trend: z.enum(METRIC_KEYS).default(DEFAULT_TREND_METRIC), judges: judgesParam })
  .refine(fromBeforeTo, rangeIssue);

/** The created_at range as [from, to): `to` is the midnight after the last day. */
export function createdRange(q: { from?: string; to?: string }): { from?: Date; to?: Date } {
  return {
    ...(q.from && { from: new Date(`${q.from}T00:00:00Z`) }),
    ...(q.to && { to: new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000) }),
  };
}
