import "server-only";
import type { RunStatus } from "@/lib/api/contracts/judges";
import type { RunInput } from "@/lib/judges/config";
import { Prisma } from "@/lib/generated/prisma/client";
import { ANCHOR_TYPES } from "@/lib/rewards/families";
import type { Family } from "@/lib/trace/types";
import { prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { judgeBoss, JUDGE_QUEUE } from "./queue";

/**
 * A run: the units (trace or event, family) a judge labels, written to
 * judge_units (the source of truth for progress, cancel and resume) and
 * sent as one pg-boss job per unit.
 */
export interface UnitJob {
  runId: number;
  traceKey: string;
  eventId: string;
  family: string;
}

/** SQL of the (trace_key, event_id, family) units one family has among `traces` (a subquery of trace ids). */
function familyUnits(family: Family, eventTypes: string[], traces: Prisma.Sql): Prisma.Sql {
  if (family === "task_success") return Prisma.sql`SELECT t.trace_id AS trace_key, '' AS event_id, ${family} AS family, t.id AS tid, -1 AS seq FROM traces t WHERE t.id IN (${traces})`;
  let types: string[] | null = family === "cost" || family === "stop_decision" ? null : [...ANCHOR_TYPES[family]!];
  if (eventTypes.length > 0) types = types === null ? eventTypes : types.filter((t) => eventTypes.includes(t));
  const stop = family === "stop_decision" ? Prisma.sql`AND e.decision = 'stop'` : Prisma.empty;
  const typed = types === null ? Prisma.empty : Prisma.sql`AND e.type::text = ANY(${types})`;
  return Prisma.sql`SELECT t.trace_id AS trace_key, e.event_id, ${family} AS family, t.id AS tid, e.seq FROM traces t JOIN events e ON e.trace_id = t.id
    WHERE t.id IN (${traces}) ${typed} ${stop}`;
}

function tracesOf(projectId: number, input: RunInput): Prisma.Sql {
  if (input.queue_id !== undefined) return Prisma.sql`SELECT t2.id FROM traces t2 JOIN queue_items qi ON qi.trace_key = t2.trace_id WHERE qi.queue_id = ${input.queue_id}`;
  const f = input.filter ?? {};
  const where: Prisma.Sql[] = [Prisma.sql`t2.project_id = ${projectId}`];
  if (f.system) where.push(Prisma.sql`t2.system = ${f.system}`);
  if (f.task_id) where.push(Prisma.sql`t2.task_id = ${f.task_id}`);
  if (f.group_id) where.push(Prisma.sql`t2.group_id = ${f.group_id}`);
  if (f.trace_ids) where.push(Prisma.sql`t2.trace_id = ANY(${f.trace_ids})`);
  return Prisma.sql`SELECT t2.id FROM traces t2 WHERE ${Prisma.join(where, " AND ")}`;
}

export async function createRun(judgeId: number, input: RunInput): Promise<RunStatus> {
  const judge = await prisma().judge.findUnique({ where: { id: judgeId } });
  if (!judge) throw notFound(`judge ${judgeId}`);
  if (input.queue_id !== undefined) {
    const queue = await prisma().queue.findUnique({ where: { id: input.queue_id } });
    if (!queue || queue.projectId !== judge.projectId) throw new ApiError(400, "invalid_input", "no such queue in the judge's project", [{ path: "$.queue_id", message: "unknown queue" }]);
  }
  const traces = tracesOf(judge.projectId, input);
  const families = judge.families as Family[];
  // a queue limits units to its items (trace items: trace-level families; event items: that event)
  const inQueue = input.queue_id === undefined ? Prisma.empty
    : Prisma.sql`WHERE EXISTS (SELECT 1 FROM queue_items qi WHERE qi.queue_id = ${input.queue_id} AND qi.trace_key = u.trace_key AND qi.event_id = u.event_id)`;
  const run = await prisma().$transaction(async (tx) => {
    const created = await tx.judgeRun.create({
      data: {
        judgeId, source: input.queue_id !== undefined ? { queue_id: input.queue_id } : { filter: input.filter ?? {} },
        concurrency: input.concurrency, tokenBudget: input.token_budget,
        deadline: input.time_budget_seconds === null ? null : new Date(Date.now() + input.time_budget_seconds * 1000),
      },
    });
    const union = Prisma.join(families.map((f) => familyUnits(f, judge.eventTypes, traces)), " UNION ALL ");
    const total = await tx.$executeRaw`INSERT INTO judge_units (run_id, trace_key, event_id, family)
      SELECT ${created.id}, u.trace_key, u.event_id, u.family FROM (${union}) u ${inQueue} ORDER BY u.tid, u.seq, u.family ON CONFLICT DO NOTHING`;
    return tx.judgeRun.update({ where: { id: created.id }, data: { total, ...(total === 0 && { state: "done", finishedAt: new Date() }) } });
  });
  await enqueuePending(run.id);
  return runStatus(run.id);
}

/** Sends a job for every unit of the run not done yet (a unit is labelled once however many jobs name it). */
export async function enqueuePending(runId: number): Promise<number> {
  const units = await prisma().judgeUnit.findMany({ where: { runId, state: { in: ["pending", "active"] } }, select: { traceKey: true, eventId: true, family: true } });
  const b = await judgeBoss();
  for (let i = 0; i < units.length; i += 1000) {
    await b.insert(units.slice(i, i + 1000).map((u) => ({ name: JUDGE_QUEUE, data: { runId, ...u } satisfies UnitJob, retryLimit: 3, retryDelay: 5, retryBackoff: true })));
  }
  return units.length;
}

export async function cancelRun(runId: number): Promise<RunStatus> {
  await prisma().judgeRun.updateMany({ where: { id: runId, state: "running" }, data: { state: "cancelled" } });
  return runStatus(runId);
}

/** Resumes a cancelled, budget-stopped or crashed run: its pending (and stale active) units are sent again. */
export async function resumeRun(runId: number, budget?: { token_budget?: number | null; time_budget_seconds?: number | null }): Promise<RunStatus> {
  const run = await prisma().judgeRun.findUnique({ where: { id: runId } });
  if (!run) throw notFound(`run ${runId}`);
  await prisma().judgeRun.update({
    where: { id: runId },
    data: {
      state: "running", finishedAt: null,
      ...(budget?.token_budget !== undefined && { tokenBudget: budget.token_budget }),
      ...(budget?.time_budget_seconds !== undefined && { deadline: budget.time_budget_seconds === null ? null : new Date(Date.now() + budget.time_budget_seconds * 1000) }),
    },
  });
  await enqueuePending(runId);
  return runStatus(runId);
}

export async function runStatus(runId: number): Promise<RunStatus> {
  const run = await prisma().judgeRun.findUnique({ where: { id: runId } });
  if (!run) throw notFound(`run ${runId}`);
  return {
    id: run.id, judge_id: run.judgeId, state: run.state, total: run.total, done: run.done, failed: run.failed,
    pending: run.total - run.done - run.failed, tokens_in: run.tokensIn, tokens_out: run.tokensOut, concurrency: run.concurrency,
    token_budget: run.tokenBudget, deadline: run.deadline?.toISOString() ?? null, created_at: run.createdAt.toISOString(), finished_at: run.finishedAt?.toISOString() ?? null,
  };
}

export async function listRuns(judgeId: number): Promise<RunStatus[]> {
  const runs = await prisma().judgeRun.findMany({ where: { judgeId }, orderBy: { id: "desc" }, take: 50, select: { id: true } });
  return Promise.all(runs.map((r) => runStatus(r.id)));
}
