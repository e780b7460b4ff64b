import "server-only";
import { onPrimary } from "../db/read";
import type { Job } from "pg-boss";
import { answerSchema, parseAnswer, rangeOf } from "@/lib/judges/answer";
import { promptHash, systemPrompt, userPrompt } from "@/lib/judges/prompt";
import { DEFAULT_RUBRICS, type Rubric } from "@/lib/rubrics";
import type { Family } from "@/lib/trace/types";
import { eventContext, traceContext } from "../annotate/context";
import { judgePrompts } from "@/lib/judges/config";
import { pool, prisma } from "../db/client";
import { stored } from "../db/stored";
import { judgeBoss, JUDGE_QUEUE } from "./queue";
import { chat, EndpointError, type RetryPolicy } from "./endpoint";
import type { UnitJob } from "./runs";
import { decryptSecret } from "./secret";
import { setting } from "../config";

/**
 * The worker: takes unit jobs, claims each unit in judge_units (at most the
 * run's concurrency active at once across every process, under an advisory
 * lock), asks the judge, stores the value or the failure with provenance,
 * and counts it on the run. A unit whose worker died is claimed again once
 * its lease passes; a cancelled or over-budget run's units stay pending for
 * resume.
 */
export interface WorkerOptions {
  /** jobs fetched and labelled at once by this process */
  batchSize?: number;
  pollingIntervalSeconds?: number;
  leaseSeconds?: number;
  contextTokens?: number;
  retry?: RetryPolicy;
}


export async function startJudgeWorker(options: WorkerOptions = {}): Promise<string> {
  const b = await judgeBoss();
  return b.work<UnitJob>(JUDGE_QUEUE, { batchSize: options.batchSize ?? 8, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 }, (jobs: Job<UnitJob>[]) => onPrimary(async () => {
    await Promise.all(jobs.map((job) => labelUnit(job.data, options)));
  }));
}

type Claim = "claimed" | "skip" | "busy";

async function claim(u: UnitJob, leaseSeconds: number): Promise<Claim> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(7031, $1)", [u.runId]);
    const run = await client.query<{ state: string; concurrency: number; over: boolean; active: number }>(
      `SELECT state, concurrency,
         (token_budget IS NOT NULL AND tokens_in + tokens_out >= token_budget) OR (deadline IS NOT NULL AND deadline <= now()) AS over,
         (SELECT count(*)::int FROM judge_units WHERE run_id = $1 AND state = 'active' AND claimed_at > now() - make_interval(secs => $2)) AS active
       FROM judge_runs WHERE id = $1`,
      [u.runId, leaseSeconds],
    );
    const r = run.rows[0];
    let result: Claim = "skip";
    if (r && r.state === "running" && r.over) await client.query("UPDATE judge_runs SET state = 'budget_exhausted' WHERE id = $1", [u.runId]);
    else if (r && r.state === "running" && r.active >= r.concurrency) result = "busy";
    else if (r && r.state === "running") {
      const taken = await client.query(
        `UPDATE judge_units SET state = 'active', claimed_at = now()
         WHERE run_id = $1 AND trace_key = $2 AND event_id = $3 AND family = $4
           AND (state = 'pending' OR (state = 'active' AND claimed_at <= now() - make_interval(secs => $5)))`,
        [u.runId, u.traceKey, u.eventId, u.family, leaseSeconds],
      );
      result = taken.rowCount === 1 ? "claimed" : "skip";
    }
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function labelUnit(u: UnitJob, options: WorkerOptions = {}): Promise<void> {
  const lease = options.leaseSeconds ?? setting("BATON_JUDGE_LEASE_SECONDS");
  let state = await claim(u, lease);
  while (state === "busy") {
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    state = await claim(u, lease);
  }
  if (state === "skip") return;
  const outcome = await ask(u, options).catch((error: unknown) => ({ failed: true as const, error: String(error), raw: null, tokensIn: null, tokensOut: null }));
  await pool().query(
    `WITH u AS (UPDATE judge_units SET state = $5 WHERE run_id = $1 AND trace_key = $2 AND event_id = $3 AND family = $4 AND state = 'active' RETURNING 1)
     UPDATE judge_runs SET done = done + CASE WHEN $5 = 'done' THEN 1 ELSE 0 END, failed = failed + CASE WHEN $5 = 'failed' THEN 1 ELSE 0 END,
       tokens_in = tokens_in + $6, tokens_out = tokens_out + $7 WHERE id = $1 AND EXISTS (SELECT 1 FROM u)`,
    [u.runId, u.traceKey, u.eventId, u.family, outcome.failed ? "failed" : "done", outcome.tokensIn ?? 0, outcome.tokensOut ?? 0],
  );
  await pool().query(
    `UPDATE judge_runs SET state = 'done', finished_at = now() WHERE id = $1 AND state = 'running'
       AND NOT EXISTS (SELECT 1 FROM judge_units WHERE run_id = $1 AND state IN ('pending', 'active'))`,
    [u.runId],
  );
}

interface Outcome {
  failed: boolean;
  error: string | null;
  raw: string | null;
  tokensIn: number | null;
  tokensOut: number | null;
}

async function ask(u: UnitJob, options: WorkerOptions): Promise<Outcome> {
  const run = await prisma().judgeRun.findUniqueOrThrow({ where: { id: u.runId }, include: { judge: true } });
  const judge = run.judge;
  const trace = await prisma().trace.findUniqueOrThrow({ where: { traceId: u.traceKey }, select: { id: true, traceId: true, taskId: true, system: true, metadata: true, eventCount: true, projectId: true } });
  const unit = u.eventId === "" ? "trace" : "event";
  const ctx = unit === "trace" ? await traceContext(trace) : await eventContext(trace, u.eventId);
  const rubric = await rubricFor(judge.projectId, u.family as Family);
  const system = systemPrompt(rubric, unit, stored(judgePrompts, judge.prompts, `judge ${judge.id}: its prompts`)[u.family as Family] ?? "");
  const hash = promptHash(system, judge.model, judge.temperature, judge.maxTokens);
  const range = rangeOf(u.family, unit);
  const base = { judgeId: judge.id, runId: run.id, traceKey: u.traceKey, eventId: u.eventId, family: u.family, model: judge.model, promptHash: hash };
  const started = performance.now();
  try {
    const reply = await chat(
      {
        baseUrl: judge.baseUrl, apiKey: judge.apiKeyCipher ? decryptSecret(judge.apiKeyCipher) : null, model: judge.model,
        messages: [{ role: "system", content: system }, { role: "user", content: userPrompt(ctx, options.contextTokens ?? 4000) }],
        temperature: judge.temperature, maxTokens: judge.maxTokens, responseFormat: judge.jsonSchema ? answerSchema(range) : null,
      },
      options.retry,
    );
    const answer = parseAnswer(reply.text, range);
    const provenance = { ...base, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut, latencyMs: reply.latencyMs };
    if (!answer.ok) {
      await prisma().judgeLabel.create({ data: { ...provenance, raw: reply.text.slice(0, 20_000), error: answer.error } });
      return { failed: true, error: answer.error, raw: reply.text, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut };
    }
    // the new value becomes current; older values (any prompt) stay as history
    await prisma().$transaction([
      prisma().judgeLabel.updateMany({ where: { judgeId: judge.id, traceKey: u.traceKey, eventId: u.eventId, family: u.family, current: true }, data: { current: false } }),
      prisma().judgeLabel.create({ data: { ...provenance, value: answer.value, reason: answer.reason, current: true } }),
    ]);
    return { failed: false, error: null, raw: null, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut };
  } catch (error) {
    const message = error instanceof EndpointError ? error.message : String(error);
    await prisma().judgeLabel.create({ data: { ...base, error: message.slice(0, 2000), latencyMs: Math.round(performance.now() - started) } });
    return { failed: true, error: message, raw: null, tokensIn: null, tokensOut: null };
  }
}

/** The project's rubric of the family (its own text, else lib/rubrics' default): an edited rubric changes the prompt and so its hash. */
async function rubricFor(projectId: number, family: Family): Promise<Rubric> {
  const own = await prisma().rubric.findUnique({ where: { projectId_family: { projectId, family } } });
  return own ? { family, negative: own.negative, neutral: own.neutral, positive: own.positive } : DEFAULT_RUBRICS[family];
}
