import "server-only";
import { reader } from "@/lib/server/db/read";
import { Prisma } from "@/lib/generated/prisma/client";
import type { MetricsFilter } from "./metrics";

/**
 * The trace filter of the dashboard and the cross-trace heatmap: the filter
 * of `GET /api/metrics` plus a created_at range. `from` is inclusive, `to`
 * exclusive (the caller turns an inclusive day into the next midnight).
 */
export interface TraceFilter extends MetricsFilter {
  from?: Date;
  to?: Date;
}

/** WHERE over `traces t`, in the style of metrics.ts (every value a bound parameter). */
export function traceWhere(f: TraceFilter): Prisma.Sql {
  const conditions: Prisma.Sql[] = [];
  if (f.project) conditions.push(Prisma.sql`t.project_id = (SELECT id FROM projects WHERE name = ${f.project})`);
  if (f.readable) conditions.push(Prisma.sql`t.project_id IN (SELECT id FROM projects WHERE name = ANY(${f.readable}))`);
  if (f.system) conditions.push(Prisma.sql`t.system = ${f.system}`);
  if (f.task_id) conditions.push(Prisma.sql`t.task_id = ${f.task_id}`);
  if (f.group_id) conditions.push(Prisma.sql`t.group_id = ${f.group_id}`);
  if (f.topology) conditions.push(Prisma.sql`t.topology = ${f.topology}::"Topology"`);
  if (f.from) conditions.push(Prisma.sql`t.created_at >= ${f.from}`);
  if (f.to) conditions.push(Prisma.sql`t.created_at < ${f.to}`);
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

/** How a filter reads in a title: "group g1 · system s" (or "all traces"). */
export function describeFilter(f: TraceFilter): string {
  const parts: string[] = [];
  if (f.project) parts.push(`project ${f.project}`);
  if (f.system) parts.push(`system ${f.system}`);
  if (f.task_id) parts.push(`task ${f.task_id}`);
  if (f.group_id) parts.push(`group ${f.group_id}`);
  if (f.topology) parts.push(`topology ${f.topology}`);
  if (f.from) parts.push(`from ${f.from.toISOString().slice(0, 10)}`);
  if (f.to) parts.push(`before ${f.to.toISOString().slice(0, 10)}`);
  return parts.length > 0 ? parts.join(" · ") : "all traces";
}

/** The other traces of a group (ids only), for choosing a side-by-side partner. */
export async function groupTraceIds(groupId: string | null, except: string): Promise<string[]> {
  if (groupId === null) return [];
  const rows = await (await reader()).prisma.trace.findMany({ where: { groupId, traceId: { not: except } }, select: { traceId: true }, orderBy: { traceId: "asc" }, take: 200 });
  return rows.map((r) => r.traceId);
}
