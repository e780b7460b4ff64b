import "server-only";
import { onPrimary } from "../db/read";
import { JUDGED_METHODS, METHODS } from "@/lib/blame";
import { prisma } from "../db/client";
import { boss } from "../jobs/boss";
import { blameEvaluation } from "./evaluation";
import { fullModel } from "./models";
import { judgeStamp, labelledRows } from "./labelled";
import { setting } from "../config";

/**
 * After a decisive error changes, a background job (pg-boss, shared by every
 * process) retrains the project's learned attribution models and rescores
 * its methods, so that the next blame or evaluation request finds them
 * ready. A request that comes first trains on the spot; either way the
 * answer says when and on how many traces it was trained.
 */
export const BLAME_QUEUE = "blame-refresh";

let worker: Promise<string> | null = null;

/** A project's models and scores (after a label change). */
export type RefreshJob = { project: string };

export async function scheduleBlameRefresh(job: RefreshJob): Promise<void> {
  if (setting("BATON_BLAME_WORKER") === "0") return;
  const b = await boss();
  await b.createQueue(BLAME_QUEUE);
  ensureWorker();
  // one pending refresh per project or filter: later requests join it
  // an evaluation of a few hundred labelled runs takes minutes of CPU (nested CV): more than pg-boss's default 15 minutes on a busy machine
  await b.send(BLAME_QUEUE, job, { singletonKey: JSON.stringify(job), retryLimit: 1, expireInSeconds: 3600 });
}

function ensureWorker(): void {
  if (worker) return;
  worker = (async () => {
    const b = await boss();
    return b.work<RefreshJob>(BLAME_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) => onPrimary(async () => {
      if (job) await refreshProject(job.data.project);
    }));
  })();
  worker.catch((error) => {
    console.error("[baton] blame worker:", error);
    worker = null;
  });
}

/**
 * Retrains every learned method of a project (those that read the judges' answers when judges answered about its
 * labelled traces) and queues the scoring of its methods (blame_scorings).
 */
export async function refreshProject(project: string): Promise<void> {
  const row = await prisma().project.findUnique({ where: { name: project } });
  if (!row) return;
  for (const method of METHODS) if (method.learned) await fullModel(row.id, method);
  if ((await judgeStamp((await labelledRows({ projectId: row.id })).map((r) => r.trace_id))).n > 0) for (const method of JUDGED_METHODS) if (method.learned) await fullModel(row.id, method);
  await blameEvaluation({ project });
}
