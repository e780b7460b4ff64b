import "server-only";
import type { TraceListQuery } from "@/lib/api/filters";
import type { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";
import { notFound } from "../errors";
import { isStorableId } from "@/lib/api/text";
import { loadTraceById } from "./load-trace";
import { apiEvent, type ApiEvent } from "./serialize";

/** A row of the trace list (`GET /api/traces`). */
export interface TraceListItem {
  id: number;
  trace_id: string;
  project: string;
  task_id: string;
  system: string | null;
  topology: string | null;
  group_id: string | null;
  events: number;
  edges: number;
  e1: number | null;
  reported_e1: number | null;
  verdict: string | null;
  created_at: string;
}

/**
 * Prisma passes `contains` to ILIKE as it is, so `%` and `_` would match
 * anything: escape them (and the escape character) to search literally.
 */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, "\\$&");

export async function listTraces(query: TraceListQuery, readable: string[] | null = null): Promise<{ traces: TraceListItem[]; next_cursor: string | null }> {
  const where: Prisma.TraceWhereInput = {
    ...(readable !== null && { project: { name: { in: readable } } }),
    ...(query.project && { AND: [{ project: { name: query.project } }] }),
    ...(query.system && { system: query.system }),
    ...(query.task_id && { taskId: query.task_id }),
    ...(query.group_id && { groupId: query.group_id }),
    ...(query.topology && { topology: query.topology }),
    ...(query.verdict && { verdict: query.verdict }),
    ...(query.cursor && { id: { lt: Number(query.cursor) } }),
    ...(query.q && { OR: (["traceId", "taskId", "system", "groupId"] as const).map((field) => ({ [field]: { contains: likeLiteral(query.q!), mode: "insensitive" } })) }),
  };
  const rows = await prisma().trace.findMany({
    where,
    orderBy: { id: "desc" },
    take: query.limit + 1,
    include: { project: { select: { name: true } } },
  });
  const page = rows.slice(0, query.limit);
  return {
    traces: page.map((r) => ({
      id: r.id,
      trace_id: r.traceId,
      project: r.project.name,
      task_id: r.taskId,
      system: r.system,
      topology: r.topology,
      group_id: r.groupId,
      events: r.eventCount,
      edges: r.edgeCount,
      e1: r.e1,
      reported_e1: r.reportedE1,
      verdict: r.verdict,
      created_at: r.createdAt.toISOString(),
    })),
    next_cursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null,
  };
}

export async function findTraceRow(traceId: string) {
  const row = await findTraceRowOrNull(traceId);
  if (!row) throw traceNotFound(traceId);
  return row;
}

/**
 * The row, or null. An id no trace can have (over 512 characters, U+0000 or
 * a lone surrogate, which PostgreSQL cannot even compare) is simply not
 * found, without asking the database.
 */
export async function findTraceRowOrNull(traceId: string) {
  if (!isStorableId(traceId)) return null;
  return prisma().trace.findUnique({ where: { traceId }, include: { project: { select: { name: true } } } });
}

export const traceNotFound = (traceId: string) => notFound(`trace ${JSON.stringify(traceId.slice(0, 200))}`);

/** The trace in extended form (SPEC.md section 7), events in input order with their extra fields; content only when asked for. */
export async function getTrace(traceId: string, opts: { content: boolean }) {
  const row = await findTraceRow(traceId);
  const { events, ...trace } = await loadTraceById(row.id, { content: opts.content ? "all" : "none" });
  return {
    ...trace,
    events: events.map(({ extra, ...e }) => ({ ...e, ...extra })),
    created_at: row.createdAt.toISOString(),
    warnings: row.warnings,
  };
}

/** Events in event order, a page at a time (`seq` is the cursor). */
export async function listEvents(traceId: string, opts: { cursor?: string; limit: number; content: boolean }): Promise<{ events: ApiEvent[]; next_cursor: string | null }> {
  const row = await findTraceRow(traceId);
  const from = opts.cursor ? Number(opts.cursor) : 0;
  const events = await prisma().event.findMany({
    where: { traceId: row.id, seq: { gte: from, lt: from + opts.limit } },
    orderBy: { seq: "asc" },
  });
  const contents = opts.content && events.length > 0
    ? await prisma().eventContent.findMany({ where: { traceId: row.id, seq: { gte: from, lt: from + opts.limit } } })
    : [];
  const bySeq = new Map(contents.map((c) => [c.seq, c.content]));
  const next = from + opts.limit;
  return {
    events: events.map((e) => apiEvent(e, opts.content ? (bySeq.get(e.seq) ?? null) : undefined)),
    next_cursor: next < row.eventCount ? String(next) : null,
  };
}

/** Edges of a trace with event ids (for the detail page). */
export async function listEdges(traceDbId: number) {
  const [edges, events] = await Promise.all([
    prisma().edge.findMany({ where: { traceId: traceDbId }, orderBy: { seq: "asc" } }),
    prisma().event.findMany({ where: { traceId: traceDbId }, select: { seq: true, eventId: true } }),
  ]);
  const idBySeq = new Map(events.map((e) => [e.seq, e.eventId]));
  return edges.map((e) => ({ seq: e.seq, src: idBySeq.get(e.src)!, dst: idBySeq.get(e.dst)!, type: e.type }));
}

/** Distinct values for the list filters' suggestions. */
export async function traceFacets(): Promise<{ projects: string[]; systems: string[] }> {
  const [projects, systems] = await Promise.all([
    prisma().project.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    prisma().trace.findMany({ select: { system: true }, distinct: ["system"], where: { system: { not: null } }, orderBy: { system: "asc" }, take: 200 }),
  ]);
  return { projects: projects.map((p) => p.name), systems: systems.map((s) => s.system!).filter(Boolean) };
}

/** The projects a request body writes to, and on upsert those of the traces it would replace. */
export async function projectsTouched(records: readonly { value: unknown }[], upsert: boolean): Promise<string[]> {
  const projects = new Set<string>();
  const ids: string[] = [];
  for (const { value } of records) {
    const v = value as { project?: unknown; trace_id?: unknown } | null;
    projects.add(typeof v?.project === "string" ? v.project : "default");
    if (typeof v?.trace_id === "string") ids.push(v.trace_id);
  }
  if (upsert && ids.length > 0) {
    const existing = await prisma().trace.findMany({ where: { traceId: { in: ids } }, select: { project: { select: { name: true } } } });
    for (const e of existing) projects.add(e.project.name);
  }
  return [...projects];
}
