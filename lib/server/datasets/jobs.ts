import "server-only";
import { onPrimary } from "../db/read";
import type { Job } from "pg-boss";
import { bossWithQueue } from "../jobs/boss";
import { failDeadBuilds } from "./build";
import { buildSnapshotElsewhere } from "./build-process";
import { setting } from "../config";

/**
 * Snapshot builds as pg-boss jobs (one per snapshot) in the queue the
 * judges' jobs share the schema with. A job whose worker dies expires after
 * an hour (a build of 100,000 traces takes minutes) and is retried, up to
 * twice; buildSnapshot starts a retried build from nothing. Each build runs
 * in a child process of its own (build-process.ts).
 */
export const DATASET_QUEUE = "dataset-snapshot";

interface SnapshotJob {
  datasetId: number;
}

export async function enqueueSnapshot(datasetId: number): Promise<void> {
  const b = await bossWithQueue(DATASET_QUEUE);
  await b.send(DATASET_QUEUE, { datasetId } satisfies SnapshotJob, { retryLimit: 2, expireInSeconds: 3600 });
}

let worker: Promise<string> | null = null;

/** A worker in this process, started once (BATON_DATASET_WORKER=0 leaves the builds to another process); it also fails dead builds every half minute. */
export function ensureDatasetWorker(): void {
  if (setting("BATON_DATASET_WORKER") === "0" || worker) return;
  setInterval(() => void onPrimary(failDeadBuilds).catch(() => {}), 30_000).unref();
  worker = (async () => {
    const b = await bossWithQueue(DATASET_QUEUE);
    return b.work<SnapshotJob>(DATASET_QUEUE, { batchSize: 1, pollingIntervalSeconds: 0.5 }, (jobs: Job<SnapshotJob>[]) => onPrimary(async () => {
      for (const job of jobs) await buildSnapshotElsewhere(job.data.datasetId);
    }));
  })();
  worker.catch((error) => {
    console.error("[baton] dataset worker:", error);
    worker = null;
  });
}
