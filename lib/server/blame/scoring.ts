import "server-only";
import type { PoolClient } from "pg";
import { pool } from "../db/client";
import { onPrimary } from "../db/read";
import { boss } from "../jobs/boss";
import { scoreLabelled, scoringKey } from "./score-labelled";
import { labelledRows, loadLabelled, type LabelledFilter } from "./labelled";
import { attributionReportElsewhere } from "./report-process";
import { setting } from "../config";

/**
 * The scoring of attribution methods as a background job (pg-boss queue
 * `blame-scoring`, shared by every process): one job per distinct input
 * (its key; a second ask joins the first), at most BATON_BLAME_SCORERS
 * scoring at once across every process (advisory locks: a job waits for a
 * free scorer), its state and progress written to blame_scorings where
 * every caller reads them. A scoring stops (its child killed) as soon as
 * nobody needs it: its labelled set changed (superseded) or it was
 * cancelled.
 */
export const SCORING_QUEUE = "blame-scoring";
export interface ScoringJob {
  key: string;
  filter: LabelledFilter;
}

/** advisory lock namespace of the scorer slots */
const SLOT_LOCK = 7034;
/** how often a running scoring checks that it is still needed */
const CHECK_MS = 1000;

/** BATON_BLAME_SCORERS (validated with the whole configuration at start). */
export function scorers(env: NodeJS.ProcessEnv = process.env): number {
  return setting("BATON_BLAME_SCORERS", env);
}

let worker: Promise<string> | null = null;

export async function enqueueScoring(job: ScoringJob): Promise<void> {
  const b = await boss();
  await b.createQueue(SCORING_QUEUE);
  ensureScoringWorker();
  // a scoring of a few hundred labelled runs may wait for a scorer and then take minutes: more than pg-boss's default 15 minutes
  await b.send(SCORING_QUEUE, job, { singletonKey: job.key, retryLimit: 1, expireInSeconds: 3600 });
}

export function ensureScoringWorker(): void {
  if (worker || setting("BATON_BLAME_WORKER") === "0") return;
  worker = (async () => {
    const b = await boss();
    await b.createQueue(SCORING_QUEUE);
    return b.work<ScoringJob>(SCORING_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, ([job]) => onPrimary(async () => {
      if (job) await runScoring(job.data);
    }));
  })();
  worker.catch((error) => {
    console.error("[baton] scoring worker:", error);
    worker = null;
  });
}

/** Cancels a scoring that is queued or running (its child stops within a second); false when it was neither. */
export async function cancelScoring(key: string, reason = "cancelled"): Promise<boolean> {
  const { rowCount } = await pool().query("UPDATE blame_scorings SET state = 'cancelled', error = $2, finished_at = now() WHERE key = $1 AND state IN ('queued', 'running')", [key, reason]);
  return (rowCount ?? 0) > 0;
}

/** Why a scoring is no longer needed, or null while it is. */
async function unneeded(job: ScoringJob): Promise<string | null> {
  const { rows } = await pool().query<{ state: string }>("SELECT state FROM blame_scorings WHERE key = $1", [job.key]);
  if (rows[0]?.state !== "queued" && rows[0]?.state !== "running") return "cancelled";
  if ((await scoringKey(await labelledRows(job.filter))) !== job.key) return "superseded: the labelled set changed";
  return null;
}

/** Holds one of the scorer slots (a session advisory lock on `client`), waiting while every slot is taken and the job still needed. */
async function takeSlot(client: PoolClient, job: ScoringJob): Promise<{ slot: number } | { reason: string }> {
  for (;;) {
    for (let slot = 0; slot < scorers(); slot++) {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [SLOT_LOCK, slot]);
      if (rows[0]!.ok) return { slot };
    }
    const reason = await unneeded(job);
    if (reason) return { reason };
    await new Promise((r) => setTimeout(r, CHECK_MS));
  }
}

/** The job: one scoring, from its labelled set to its stored result (or its reason to stop). */
export async function runScoring(job: ScoringJob): Promise<void> {
  if (await unneeded(job).then((r) => r === "cancelled")) return;
  const client = await pool().connect();
  let slot: number | null = null;
  const controller = new AbortController();
  let checking: NodeJS.Timeout | null = null;
  try {
    const taken = await takeSlot(client, job);
    if ("reason" in taken) return void (await cancelScoring(job.key, taken.reason));
    slot = taken.slot;
    const rows = await labelledRows(job.filter);
    if ((await scoringKey(rows)) !== job.key) return void (await cancelScoring(job.key, "superseded: the labelled set changed"));
    const { rowCount } = await pool().query("UPDATE blame_scorings SET state = 'running', progress = 0, started_at = now() WHERE key = $1 AND state IN ('queued', 'running')", [job.key]);
    if (!rowCount) return;
    let check: Promise<void> = Promise.resolve();
    checking = setInterval(() => {
      check = check.then(async () => {
        const reason = await unneeded(job).catch(() => null);
        if (reason) controller.abort(new Error(reason));
      });
    }, CHECK_MS);
    let written = 0;
    const onProgress = (share: number) => {
      if (Date.now() - written < 500) return;
      written = Date.now();
      void pool().query("UPDATE blame_scorings SET progress = $2 WHERE key = $1 AND state = 'running'", [job.key, share]).catch(() => {});
    };
    const labelled = await loadLabelled(rows);
    const result = await scoreLabelled(rows, labelled, (input) => attributionReportElsewhere(input, { onProgress, signal: controller.signal }));
    await pool().query("UPDATE blame_scorings SET state = 'done', progress = 1, result = $2, error = NULL, finished_at = now() WHERE key = $1 AND state = 'running'", [job.key, JSON.stringify(result)]);
    await pruneScorings(job);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (controller.signal.aborted) await cancelScoring(job.key, message);
    else await pool().query("UPDATE blame_scorings SET state = 'failed', error = $2, finished_at = now() WHERE key = $1 AND state = 'running'", [job.key, message.slice(0, 2000)]);
  } finally {
    if (checking) clearInterval(checking);
    if (slot !== null) await client.query("SELECT pg_advisory_unlock($1, $2)", [SLOT_LOCK, slot]).catch(() => {});
    client.release();
  }
}

/** Older finished scorings of the same filter nobody asked for in a day go (the newest stays as the filter's last scores). */
async function pruneScorings(job: ScoringJob): Promise<void> {
  await pool().query(
    `DELETE FROM blame_scorings WHERE key <> $1 AND project IS NOT DISTINCT FROM $2 AND system IS NOT DISTINCT FROM $3
       AND state NOT IN ('queued', 'running') AND asked_at < now() - interval '1 day'`,
    [job.key, job.filter.project ?? null, job.filter.system ?? null],
  );
}
