/**
 * A worker thread of report-threads.ts: claims parts of one report (the
 * counter it shares with every thread of the report), computes each and
 * posts it back, until none is left.
 */
import { workerData } from "node:worker_threads";
import { reportParts, runPart } from "../../blame/report";
import { withTrainingCache } from "../../blame/train-cache";
import type { WorkerData, WorkerMessage } from "./report-threads";

const { input, claims, posted, port } = workerData as WorkerData;
const post = (message: WorkerMessage) => {
  port.postMessage(message);
  Atomics.add(posted, 0, 1);
  Atomics.notify(posted, 0);
};

try {
  const parts = reportParts(input);
  withTrainingCache(() => {
    for (let i = Atomics.add(claims, 0, 1); i < parts.length; i = Atomics.add(claims, 0, 1)) post({ index: i, result: runPart(input, parts[i]!) });
  });
} catch (error) {
  post({ error: error instanceof Error ? error.message : String(error) });
}
