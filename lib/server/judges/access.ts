import "server-only";
import { authorizeInProject, readableProjects, type Actor } from "../auth/access";
import { numericId } from "../auth/routes";
import { prisma } from "../db/client";
import { notFound } from "../errors";
import { startJudgeWorker } from "./worker";
import { setting } from "../config";

/**
 * Judges are managed by the admins of their project (or site admins; in
 * open local mode, the local user): every judge and run route resolves the
 * project first, then authorizes "admin" in it.
 */
export async function authorizeJudge(request: Request, rawId: string): Promise<{ judgeId: number; project: string; actor: Actor }> {
  const judgeId = numericId(rawId, "judge");
  const judge = await prisma().judge.findUnique({ where: { id: judgeId }, select: { project: { select: { name: true } } } });
  // callers who may not read its project hear the same 404 as for an unknown judge
  const actor = await authorizeInProject(request, judge?.project.name ?? null, "admin", () => notFound(`judge ${judgeId}`));
  return { judgeId, project: judge!.project.name, actor };
}

export async function authorizeRun(request: Request, rawId: string): Promise<{ runId: number }> {
  const runId = numericId(rawId, "run");
  const run = await prisma().judgeRun.findUnique({ where: { id: runId }, select: { judgeId: true } });
  const judge = run && (await prisma().judge.findUnique({ where: { id: run.judgeId }, select: { project: { select: { name: true } } } }));
  await authorizeInProject(request, judge?.project.name ?? null, "admin", () => notFound(`run ${runId}`));
  return { runId };
}

export { readableProjects };

let worker: Promise<string> | null = null;

/** The app's own worker, started on first use (BATON_JUDGE_WORKER=0 leaves the work to `npm run judge -- work`). */
export function ensureAppWorker(): void {
  if (setting("BATON_JUDGE_WORKER") === "0" || worker) return;
  worker = startJudgeWorker({ batchSize: setting("BATON_JUDGE_BATCH") });
  worker.catch((error) => {
    console.error("[baton] judge worker:", error);
    worker = null;
  });
}
