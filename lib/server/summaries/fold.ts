import "server-only";
import type { Job } from "pg-boss";
import { pool, transaction } from "../db/client";
import { onPrimary } from "../db/read";
import { boss, bossWithQueue } from "../jobs/boss";

/**
 * The fold of the decision summaries' pending rows (decisions-sql.ts): a
 * label's write appends its trace's E1 and R_total differences to
 * decision_pending rather than updating the shared summary rows, and the
 * reads add what is pending; this job moves the pending rows into the
 * summaries, so that the reads stay small. A write that changed summaries
 * asks for a fold (`requestFold`): at most one job per process every
 * FOLD_EVERY_MS, and one queued at a time (a stately queue in pg-boss), so a
 * burst of labels is folded in a few batches. The worker runs in the
 * background process beside the graph pages' (worker-child.ts); any number
 * of processes may work the queue.
 *
 * The fold gives way to writers: it waits at most FOLD_LOCK_TIMEOUT for a
 * lock (a group's, or a summary row a writer's transaction holds) and then
 * stops, to be taken up by the next job. Nothing is lost meanwhile: the reads
 * add the pending rows, and a write that moves a trace elsewhere folds that
 * trace's rows itself.
 */
export const FOLD_QUEUE = "decision-fold";
const FOLD_EVERY_MS = 1000;
const FOLD_BATCH = 5000;
const FOLD_LOCK_TIMEOUT = "200ms";

/**
 * Folds pending rows, the oldest first, in transactions of at most `batch` rows, until none is left,
 * `maxBatches` have run, or a lock was not granted in time (then it returns what it folded so far).
 */
export async function foldDecisionSummaries(opts: { batch?: number; maxBatches?: number } = {}): Promise<{ folded: number; gaveWay: boolean }> {
  const batch = opts.batch ?? FOLD_BATCH;
  let folded = 0;
  for (let i = 0; i < (opts.maxBatches ?? Infinity); i++) {
    let n: number;
    try {
      n = await transaction(async (client) => {
        await client.query(`SET LOCAL lock_timeout = '${FOLD_LOCK_TIMEOUT}'`);
        const { rows } = await client.query<{ n: number }>({ name: "decision-fold", text: "SELECT baton_decision_fold(NULL, $1) AS n", values: [batch] });
        return rows[0]!.n;
      });
    } catch (error) {
      // 55P03: a lock not granted within the timeout; 40P01: a deadlock with a writer, which PostgreSQL broke by cancelling the fold
      const code = (error as { code?: string }).code;
      if (code === "55P03" || code === "40P01") return { folded, gaveWay: true };
      throw error;
    }
    folded += n;
    if (n < batch) break;
  }
  return { folded, gaveWay: false };
}

/** How many rows are pending. */
export async function pendingRows(): Promise<number> {
  const { rows } = await pool().query<{ n: number }>("SELECT count(*)::int AS n FROM decision_pending");
  return rows[0]!.n;
}

let lastRequest = 0;
let trailing: NodeJS.Timeout | null = null;

/**
 * Asks for a fold after a write that may have appended pending rows; never fails the write (without a
 * queue, the rows wait, and the reads add them). Cheap: in a burst, one job is sent per second per process,
 * and one more at the end of the burst's last second, so that the last write's rows are folded too.
 */
export function requestFold(): void {
  const wait = lastRequest + FOLD_EVERY_MS - Date.now();
  if (wait > 0) {
    trailing ??= setTimeout(() => {
      trailing = null;
      requestFold();
    }, wait);
    trailing.unref();
    return;
  }
  lastRequest = Date.now();
  void (async () => {
    const b = await bossWithQueue(FOLD_QUEUE, "stately");
    await b.send(FOLD_QUEUE, {}, { singletonKey: "fold", retryLimit: 0, expireInSeconds: 600 });
  })().catch((error: unknown) => {
    console.error("[baton] decision summaries' fold not queued:", error instanceof Error ? error.message : error);
  });
}

/** Works the fold queue in this process; resolves to the worker's id. */
export async function startFoldWorker(opts: { pollingIntervalSeconds?: number } = {}): Promise<string> {
  const b = await bossWithQueue(FOLD_QUEUE, "stately");
  return b.work(FOLD_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 }, (jobs: Job[]) =>
    onPrimary(async () => (jobs.length === 0 ? null : foldDecisionSummaries())),
  );
}

export async function stopFoldWorker(): Promise<void> {
  await (await boss()).offWork(FOLD_QUEUE);
}
