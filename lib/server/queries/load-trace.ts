import "server-only";
import type { Trace, TraceEvent } from "@/lib/trace/types";
import { prisma } from "../db/client";
import { findTraceRow } from "./traces";

/**
 * A stored trace back as the domain object the compute core takes: events in
 * their input order (ties in event order depend on it). Content is loaded for
 * message events only: message_redundancy keys on it; nothing else reads it.
 */
export async function loadTrace(traceId: string, opts: LoadOptions = {}): Promise<Trace> {
  const row = await findTraceRow(traceId);
  return loadTraceById(row.id, opts);
}

export interface LoadOptions {
  /** which events' content to load: messages' (compute, the default), every event's (export), or none */
  content?: "messages" | "all" | "none";
}

export async function loadTraceById(id: number, opts: LoadOptions = {}): Promise<Trace> {
  const db = prisma();
  const [row, events, edges] = await Promise.all([
    db.trace.findUniqueOrThrow({ where: { id }, include: { project: { select: { name: true } } } }),
    db.event.findMany({ where: { traceId: id }, orderBy: { pos: "asc" } }),
    db.edge.findMany({ where: { traceId: id }, orderBy: { seq: "asc" } }),
  ]);
  // One table per query, by primary key: a join with events could get a poor plan right after a big ingest (no statistics yet).
  const messageSeqs = events.filter((e) => e.type === "message").map((e) => e.seq);
  const contents =
    opts.content === "none"
      ? []
      : opts.content === "all"
        ? await db.eventContent.findMany({ where: { traceId: id }, select: { seq: true, content: true } })
        : await db.$queryRaw<{ seq: number; content: string }[]>`
            SELECT seq, content FROM event_content WHERE trace_id = ${id} AND seq = ANY(${messageSeqs}::int[])`;
  const contentBySeq = new Map(contents.map((c) => [c.seq, c.content]));
  const idBySeq = new Map(events.map((e) => [e.seq, e.eventId]));
  return {
    trace_id: row.traceId,
    task_id: row.taskId,
    ...(row.system !== null && { system: row.system }),
    ...(row.topology !== null && { topology: row.topology }),
    ...(row.groupId !== null && { group_id: row.groupId }),
    project: row.project.name,
    ...(row.metadata !== null && { metadata: row.metadata }),
    events: events.map((e): TraceEvent => {
      const event: TraceEvent = { id: e.eventId, t: e.t, type: e.type, agent: e.agent };
      if (e.role !== null) event.role = e.role;
      if (e.fromAgent !== null) event.from = e.fromAgent;
      if (e.toAgent !== null) event.to = e.toAgent;
      if (e.tool !== null) event.tool = e.tool;
      if (e.contentRef !== null) event.content_ref = e.contentRef;
      if (e.trusted !== null) event.trusted = e.trusted;
      if (e.tEnd !== null) event.t_end = e.tEnd;
      if (e.tokens !== null) event.tokens = e.tokens;
      if (e.status !== null) event.status = e.status;
      if (e.decision !== null) event.decision = e.decision;
      if (e.reason !== null) event.reason = e.reason;
      if (e.rewards !== null) event.rewards = e.rewards as TraceEvent["rewards"];
      const content = contentBySeq.get(e.seq);
      if (content !== undefined) event.content = content;
      if (e.extra !== null) event.extra = e.extra as Record<string, unknown>;
      return event;
    }),
    edges: edges.map((e) => ({ src: idBySeq.get(e.src)!, dst: idBySeq.get(e.dst)!, type: e.type })),
    rewards: row.rewards as Record<string, number>,
    costs: row.costs as Trace["costs"],
    ...(row.reportedMetrics !== null && { metrics: row.reportedMetrics as Record<string, number> }),
  };
}

/** The other traces of a group (for grpo / gigpo). */
export async function loadGroup(groupId: string): Promise<Trace[]> {
  const rows = await prisma().trace.findMany({ where: { groupId }, select: { id: true }, orderBy: { id: "asc" } });
  return Promise.all(rows.map((r) => loadTraceById(r.id)));
}
