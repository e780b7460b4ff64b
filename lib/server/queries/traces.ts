import "server-only";
import { z } from "zod";
import { reader } from "@/lib/server/db/read";
import { Prisma } from "@/lib/generated/prisma/client";
import { DEMO_SOURCE } from "@/lib/demo/source";
import { loadTraceById } from "./load-trace";
import { findTraceRow } from "./trace-row";
import { apiEvent, type ApiEvent } from "./serialize";
import { problem } from "@/lib/api/contracts/traces";

export { listTraces, type TraceListItem } from "./trace-list";
export { findTraceRow, findTraceRowOrNull, traceNotFound } from "./trace-row";

/** The few columns the label routes need (its key, row id and project), read with the mode in one round trip (auth/trace-access.ts). */
export interface TraceRef {
  id: number;
  traceId: string;
  project: { name: string };
}

/** The trace in extended form (SPEC.md section 7), events in input order with their extra fields; content only when asked for. */
export async function getTrace(traceId: string, opts: { content: boolean }) {
  const row = await findTraceRow(traceId);
  const { events, ...trace } = await loadTraceById(row.id, { content: opts.content ? "all" : "none" });
  return {
    ...trace,
    events: events.map(({ extra, ...e }) => ({ ...e, ...extra })),
    created_at: row.createdAt.toISOString(),
    // written by ingest as Problem[] (default [])
    warnings: z.array(problem).parse(row.warnings),
  };
}

/** Events in event order, a page at a time (`seq` is the cursor). */
export async function listEvents(traceId: string, opts: { cursor?: string; limit: number; content: boolean }): Promise<{ events: ApiEvent[]; next_cursor: string | null }> {
  const row = await findTraceRow(traceId);
  const from = opts.cursor ? Number(opts.cursor) : 0;
  const events = await (await reader()).prisma.event.findMany({
    where: { traceId: row.id, seq: { gte: from, lt: from + opts.limit } },
    orderBy: { seq: "asc" },
  });
  const contents = opts.content && events.length > 0
    ? await (await reader()).prisma.eventContent.findMany({ where: { traceId: row.id, seq: { gte: from, lt: from + opts.limit } } })
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
    (await reader()).prisma.edge.findMany({ where: { traceId: traceDbId }, orderBy: { seq: "asc" } }),
    (await reader()).prisma.event.findMany({ where: { traceId: traceDbId }, select: { seq: true, eventId: true } }),
  ]);
  const idBySeq = new Map(events.map((e) => [e.seq, e.eventId]));
  return edges.map((e) => ({ seq: e.seq, src: idBySeq.get(e.src)!, dst: idBySeq.get(e.dst)!, type: e.type }));
}

/**
 * Distinct stored values for the list filters' suggestions (Project, System,
 * Task, Group; at most 200 each), of the projects the visitor may read
 * (`readable`, null for all): a suggestion never names another project's
 * project, system, task or group.
 */
export async function traceFacets(readable: readonly string[] | null): Promise<{ projects: string[]; systems: string[]; tasks: string[]; groups: string[] }> {
  const [projects, systems, tasks, groups] = await Promise.all([
    (await reader()).prisma.project.findMany({ where: readable === null ? {} : { name: { in: [...readable] } }, select: { name: true }, orderBy: { name: "asc" } }),
    readable === null ? distinctValues("system") : distinctValuesIn("system", readable),
    readable === null ? distinctValues("task_id") : distinctValuesIn("task_id", readable),
    readable === null ? distinctValues("group_id") : distinctValuesIn("group_id", readable),
  ]);
  return { projects: projects.map((p) => p.name), systems, tasks, groups };
}

/** The first distinct values of a column within some projects (a member's projects: fewer traces than the whole table). */
async function distinctValuesIn(column: "system" | "task_id" | "group_id", projects: readonly string[], limit = 200): Promise<string[]> {
  if (projects.length === 0) return [];
  const c = Prisma.raw(`t.${column}`);
  const rows = await (await reader()).prisma.$queryRaw<{ v: string }[]>`
    SELECT DISTINCT ${c} AS v FROM traces t JOIN projects p ON p.id = t.project_id
    WHERE p.name = ANY(${[...projects]}::text[]) AND ${c} IS NOT NULL ORDER BY 1 LIMIT ${limit}::int`;
  return rows.map((r) => r.v);
}

/**
 * The first distinct values of an indexed column, by a loose index scan (one
 * index probe per value), so that suggestions stay instant over a million traces.
 */
async function distinctValues(column: "system" | "task_id" | "group_id", limit = 200): Promise<string[]> {
  const c = Prisma.raw(column);
  const rows = await (await reader()).prisma.$queryRaw<{ v: string | null }[]>`
    WITH RECURSIVE d(v, n) AS (
      (SELECT ${c}, 1 FROM traces WHERE ${c} IS NOT NULL ORDER BY ${c} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${c} FROM traces WHERE ${c} > d.v ORDER BY ${c} LIMIT 1), d.n + 1 FROM d WHERE d.v IS NOT NULL AND d.n < ${limit}::int
    ) SELECT v FROM d WHERE v IS NOT NULL`;
  return rows.map((r) => r.v!);
}

/**
 * The projects a request body writes to. Which stored traces an upsert may
 * replace is decided under the trace_id's lock (StoreOptions.mayReplace), so
 * that a refusal never names another project's trace or tells it apart.
 */
export function projectsWritten(records: readonly { value: unknown }[]): string[] {
  const projects = new Set<string>();
  for (const { value } of records) {
    const v = value as { project?: unknown } | null;
    projects.add(typeof v?.project === "string" ? v.project : "default");
  }
  return [...projects];
}

/**
 * Whether the database holds no trace of its users yet: none at all, or only
 * Baton's generated demo traces (what the first page's "start here" is for).
 * Stops at the first trace of another source.
 */
export async function onlyDemoTraces(): Promise<boolean> {
  const rows = await (await reader()).prisma.$queryRaw<{ own: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM traces WHERE metadata->>'source' IS DISTINCT FROM ${DEMO_SOURCE}) AS own`;
  return !rows[0]!.own;
}
