import "server-only";
import { z } from "zod";
import { methodByName, rankedAgentSchema, rankedEventSchema, type BlameRanking, type LearnedModel } from "@/lib/blame";
import { DEFAULT_MODEL } from "@/lib/blame/default-model";
import type { Prisma } from "@/lib/generated/prisma/client";
import { pool, prisma } from "../db/client";
import { storedOrNull } from "../db/stored";
import { onPrimary } from "../db/read";
import { boss } from "../jobs/boss";
import { modelByKey, trainAndStore, type TrainJob } from "./models";
import { rankStoredElsewhere } from "./report-process";
import { setting } from "../config";

/**
 * Blame's work that no request does itself, as pg-boss jobs shared by every
 * process, each in a child process (report-process.ts):
 * - `blame-train`: a learned model (the project's, or one that leaves a
 *   labelled trace out), stored for every process (models.ts);
 * - `blame-rank`: the ranking of a trace of many events, its first
 *   RANKING_KEPT events stored (blame_rankings) and read a page at a time.
 * One job per distinct input (singleton key), one at a time per process;
 * a caller may have at most PENDING_PER_CALLER of them waiting.
 */
export const TRAIN_QUEUE = "blame-train";
export const RANK_QUEUE = "blame-rank";
export const PENDING_PER_CALLER = 4;
/** the events of a big trace's ranking that are kept (the top suspects; pages read from them) */
export const RANKING_KEPT = 1_000;

export interface RankJob {
  traceDbId: number;
  traceKey: string;
  groupId: string | null;
  projectId: number;
  method: string;
  /** what ranks it: `method` (no model), `default:<trained_at>`, or a stored model's key (models.ts) */
  modelKey: string;
}

type Queued<T> = T & { caller: string };

let workers: Promise<void> | null = null;

function ensureWorkers(): void {
  if (setting("BATON_BLAME_WORKER") === "0" || workers) return;
  workers = (async () => {
    const b = await boss();
    await b.createQueue(TRAIN_QUEUE);
    await b.createQueue(RANK_QUEUE);
    await b.work<Queued<TrainJob>>(TRAIN_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) => onPrimary(async () => {
      if (job) await runTraining(job.data);
    }));
    await b.work<Queued<RankJob>>(RANK_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) => onPrimary(async () => {
      if (job) await runRanking(job.data);
    }));
  })();
  workers.catch((error) => {
    console.error("[baton] blame workers:", error);
    workers = null;
  });
}

/** The advisory lock that makes "count what is waiting, then send" one step across processes (Prisma's migration lock is 72707369). */
const QUEUE_LOCK = 72707370;

/**
 * Queues a job unless `caller` has PENDING_PER_CALLER waiting already; null when queued (or joined), else why not.
 * Counting and sending hold one advisory lock, so that asks at the same moment (in any process) cannot all pass
 * the count before any of them has sent.
 */
async function queue<T extends object>(name: string, singletonKey: string, data: T, caller: string): Promise<string | null> {
  const b = await boss();
  await b.createQueue(name);
  ensureWorkers();
  const lock = await pool().connect();
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [QUEUE_LOCK]);
    const same = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND singleton_key = $2 AND state IN ('created', 'retry', 'active')", [name, singletonKey]);
    if (same.rows[0]!.n > 0) return null;
    const mine = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM pgboss.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active') AND data->>'caller' = $2", [[TRAIN_QUEUE, RANK_QUEUE], caller]);
    if (mine.rows[0]!.n >= PENDING_PER_CALLER) return `${PENDING_PER_CALLER} of your trainings and rankings are waiting already: ask again once they are done`;
    await b.send(name, { ...data, caller }, { singletonKey, retryLimit: 1, expireInSeconds: 1800 });
    return null;
  } finally {
    await lock.query("SELECT pg_advisory_unlock($1)", [QUEUE_LOCK]).catch(() => {});
    lock.release();
  }
}

export const queueTraining = (job: TrainJob, caller: string) => queue(TRAIN_QUEUE, `${job.projectId}|${job.method}|${job.traceKey ?? ""}|${job.fingerprint}`, job, caller);
export const queueRanking = (job: RankJob, caller: string) => queue(RANK_QUEUE, `${job.traceDbId}|${job.method}|${job.modelKey}`, job, caller);

export async function runTraining(job: TrainJob): Promise<void> {
  const method = methodByName(job.method);
  if (method?.learned) await trainAndStore(job, method);
}

const storedRankingSchema = z.object({ events: z.array(rankedEventSchema), agents: z.array(rankedAgentSchema) });

/** A stored ranking of a big trace by `method` with `modelKey` (null when there is none, or it was made with another). */
export async function storedRanking(traceDbId: number, method: string, modelKey: string): Promise<{ ranking: BlameRanking; totalEvents: number } | null> {
  const row = await prisma().blameRanking.findUnique({ where: { traceId_method: { traceId: traceDbId, method } } });
  if (!row || row.modelKey !== modelKey) return null;
  // one that does not parse (logged) is ranked again, never shown
  const parts = storedOrNull(storedRankingSchema, { events: row.events, agents: row.agents }, `blame ranking of trace ${traceDbId} by ${method}`);
  return parts && { ranking: { method, ...parts }, totalEvents: row.totalEvents };
}

async function modelOf(job: RankJob): Promise<LearnedModel | null> {
  if (job.modelKey === job.method) return null;
  if (job.modelKey.startsWith("default:")) return DEFAULT_MODEL.model;
  return modelByKey(job.projectId, job.method, job.traceKey, job.modelKey);
}

export async function runRanking(job: RankJob): Promise<void> {
  if (await storedRanking(job.traceDbId, job.method, job.modelKey)) return;
  const model = await modelOf(job);
  if (job.modelKey !== job.method && !model) return; // retrained since: a newer job ranks with the new one
  // the child loads the trace itself (2 s of this process's event loop at 100,000 events, and 100 MB through the pipe), and
  // sends back only the kept events: a whole ranking of 100,000 events is 28 MB to decode on this process's thread
  const ranking = await rankStoredElsewhere({ method: job.method, model, traceDbId: job.traceDbId, groupId: job.groupId, keep: RANKING_KEPT, traceKey: job.traceKey });
  const data = {
    modelKey: job.modelKey,
    totalEvents: ranking.total_events,
    events: ranking.events as unknown as Prisma.InputJsonValue,
    agents: ranking.agents as unknown as Prisma.InputJsonValue,
    computedAt: new Date(),
  };
  await prisma().blameRanking.upsert({ where: { traceId_method: { traceId: job.traceDbId, method: job.method } }, create: { traceId: job.traceDbId, method: job.method, ...data }, update: data });
}
