/**
 * The process that builds graph pages in the background (jobs.ts) and folds
 * the decision summaries' pending rows (summaries/fold.ts): `npm start` runs
 * it beside the app processes (scripts/start.ts), under tsx, so that a
 * build's seconds of CPU hold up no request and the cluster's primary does
 * none. It works the queue until SIGTERM or SIGINT, then stops
 * taking jobs, lets the current one finish and exits.
 */
import { closeDatabase } from "../db/client";
import { stopBoss } from "../jobs/boss";
import { startFoldWorker } from "../summaries/fold";
import { startGraphWorker } from "./jobs";

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stopBoss().catch(() => {});
  await closeDatabase().catch(() => {});
  process.exit(0);
}

Promise.all([startGraphWorker(), startFoldWorker()]).then(
  () => {
    process.on("SIGTERM", () => void stop());
    process.on("SIGINT", () => void stop());
    // the app went away without saying so
    process.once("disconnect", () => void stop());
  },
  (error: unknown) => {
    console.error("[baton] background worker could not start:", error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
