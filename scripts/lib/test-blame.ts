/**
 * Integration tests' way to the scores of GET /api/blame/evaluation: ask,
 * run the scoring jobs the ask queued (as the worker would), ask again.
 */
import { GET as evaluation } from "@/app/api/blame/evaluation/route";
import type { BlameEvaluationResponse, ScoringStatus } from "@/lib/server/blame/evaluation";
import { runScoring, SCORING_QUEUE, type ScoringJob } from "@/lib/server/blame/scoring";
import { boss } from "@/lib/server/judges/boss";
import { getRequest, params } from "./test-http";

export async function scoredEvaluation(query: string): Promise<BlameEvaluationResponse & { scoring: ScoringStatus }> {
  const url = `/api/blame/evaluation?${query}`;
  let response = await evaluation(getRequest(url), params({}));
  if (response.status === 202) {
    const jobs = (await (await boss()).fetch<ScoringJob>(SCORING_QUEUE, { batchSize: 10 })) ?? [];
    for (const job of jobs) await runScoring(job.data);
    response = await evaluation(getRequest(url), params({}));
  }
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as BlameEvaluationResponse & { scoring: ScoringStatus };
}
