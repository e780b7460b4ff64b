/**
 * Integration tests' way to the scores of GET /api/blame/evaluation: ask,
 * run the scoring jobs the ask queued (as the worker would), ask again.
 */
import { GET as evaluation } from "@/app/api/blame/evaluation/route";
import type { BlameEvaluationResponse, ScoringStatus } from "@/lib/server/blame/evaluation";
import { RANK_QUEUE, runRanking, runTraining, TRAIN_QUEUE } from "@/lib/server/blame/model-jobs";
import { runScoring, SCORING_QUEUE, type ScoringJob } from "@/lib/server/blame/scoring";
import { boss } from "@/lib/server/jobs/boss";
import { getRequest, params } from "./test-http";

export async function scoredEvaluation(query: string): Promise<BlameEvaluationResponse & { scoring: ScoringStatus }> {
  const url = `/api/blame/evaluation?${query}`;
  let response = await evaluation(getRequest(url), params({}));
  if (response.status === 202) {
    const jobs = (await (await boss()).fetch<ScoringJob>(SCORING_QUEUE, { batchSize: 10 })) ?? [];
    for (const job of jobs) {
      await runScoring(job.data);
      await (await boss()).complete(SCORING_QUEUE, job.id);
    }
    response = await evaluation(getRequest(url), params({}));
  }
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as BlameEvaluationResponse & { scoring: ScoringStatus };
}

/** Runs the training and ranking jobs queued so far (as the workers would); how many ran. */
export async function runBlameJobs(): Promise<number> {
  const b = await boss();
  let ran = 0;
  for (const [queue, run] of [[TRAIN_QUEUE, runTraining], [RANK_QUEUE, runRanking]] as const) {
    await b.createQueue(queue);
    for (;;) {
      const jobs = (await b.fetch<Parameters<typeof run>[0]>(queue, { batchSize: 20 })) ?? [];
      if (jobs.length === 0) break;
      for (const job of jobs) {
        await (run as (data: unknown) => Promise<void>)(job.data);
        await b.complete(queue, job.id);
        ran++;
      }
    }
  }
  return ran;
}
