import "server-only";
import type { Job } from "pg-boss";
import { setting } from "../config";
import { onPrimary } from "../db/read";
import type { StoredTrace } from "../ingest/store";
import { boss, bossWithQueue } from "../jobs/boss";

/**
 * The graph view's pages built in the background right after a big trace is
 * stored, so that its first open reads them (graph_pages) instead of
 * building the columns while the user waits. Every door of ingest (the API,
 * imports, the CLI, the gateway, OTLP) stores through ingest.ts,
 * file-ingest.ts or format-ingest.ts, which call scheduleGraphPages once the
 * write has committed: one pg-boss job per stored trace of at least
 * BATON_GRAPH_PREBUILD_EVENTS events (0: none). A smaller trace builds
 * fast enough on open. The jobs are worked by a process of their own
 * (worker-child.ts, which `npm start` runs beside the app processes), so the
 * build's seconds of CPU hold up no request; an open that comes before the
 * job is done waits for it (the build lock in queries/graph.ts) or, when
 * the job has not started, builds on demand as before, and the job then
 * finds the pages stored and does nothing. A new version of the trace
 * (upsert) is a new row with a job of its own; its old pages went with the
 * old row.
 */
export const GRAPH_QUEUE = "graph-pages";

export interface GraphPagesJob {
  /** the trace's row id (a version of the trace: an upsert makes a new row) */
  traceDbId: number;
  events: number;
}

/** The stored traces whose graph pages are built in the background: those of at least BATON_GRAPH_PREBUILD_EVENTS events. */
export function tracesToPrebuild(stored: readonly StoredTrace[]): StoredTrace[] {
  const threshold = setting("BATON_GRAPH_PREBUILD_EVENTS");
  if (threshold === 0) return [];
  return stored.filter((s) => !s.skipped && s.events >= threshold);
}

/**
 * Queues the build of the graph pages of the big traces just stored (after
 * the commit). Never fails the ingest: without a queue, the first open
 * builds them, as it always could. Resolves to the number of jobs queued.
 */
export async function scheduleGraphPages(stored: readonly StoredTrace[]): Promise<number> {
  const big = tracesToPrebuild(stored);
  if (big.length === 0) return 0;
  try {
    const b = await bossWithQueue(GRAPH_QUEUE);
    for (const s of big) {
      await b.send(GRAPH_QUEUE, { traceDbId: s.id, events: s.events } satisfies GraphPagesJob, { singletonKey: String(s.id), retryLimit: 1, expireInSeconds: 1800 });
    }
    return big.length;
  } catch (error) {
    console.error("[baton] graph pages not queued (the first open builds them):", error instanceof Error ? error.message : error);
    return 0;
  }
}

/** Works the queue in this process, one trace at a time; resolves to the worker's id. */
export async function startGraphWorker(opts: { pollingIntervalSeconds?: number } = {}): Promise<string> {
  // here, not at the top: the ingest paths that import this module need none of the graph view's code
  const { prebuildGraphPages } = await import("../queries/graph");
  const b = await bossWithQueue(GRAPH_QUEUE);
  return b.work<GraphPagesJob>(GRAPH_QUEUE, { batchSize: 1, pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5 }, (jobs: Job<GraphPagesJob>[]) => onPrimary(async () => {
    const job = jobs[0];
    if (!job) return null;
    const started = performance.now();
    const outcome = await prebuildGraphPages(job.data.traceDbId);
    const ms = Math.round(performance.now() - started);
    if (outcome === "built") console.log(`[baton] graph pages of trace row ${job.data.traceDbId} (${job.data.events} events) built in ${ms} ms`);
    return { outcome, ms };
  }));
}

export async function stopGraphWorker(): Promise<void> {
  await (await boss()).offWork(GRAPH_QUEUE);
}
