/**
 * A report's parts computed in worker threads beside the thread that scores
 * it (lib/blame/report.ts ReportHelpers): each worker (report-worker.ts)
 * claims the next part from a counter shared with every thread, computes it
 * and posts it back; the scoring thread, which stays synchronous, reads
 * those results without yielding to the event loop (receiveMessageOnPort)
 * and sleeps on a shared counter while it waits. The report is the same to
 * the bit however the parts fall. No server imports: report-child.ts and
 * the benchmark use it.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import type { PartResult, ReportHelpers, ReportInput } from "../../blame/report";

/** What a worker posts for each part it claimed. */
export type WorkerMessage = { index: number; result: PartResult } | { error: string };

/** What a worker is started with. */
export interface WorkerData {
  input: Pick<ReportInput, "labelled" | "systems">;
  /** [the next part to claim] */
  claims: Int32Array;
  /** [parts posted so far], notified at each */
  posted: Int32Array;
  port: MessagePort;
}

// run from the sources under tsx, registered in the worker itself (a thread does not inherit the loader of --import tsx)
const workerPath = () => path.join(process.cwd(), "lib", "server", "blame", "report-worker.ts");
const workerSource = (file: string) => `require("tsx/cjs"); require(${JSON.stringify(file)});`;

/** `count` worker threads helping with one report (none when `count` is 0 or the sources are not here). */
export function threadHelpers(count: number): ReportHelpers | undefined {
  if (count < 1 || !existsSync(workerPath())) return undefined;
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  const posted = new Int32Array(new SharedArrayBuffer(4));
  return {
    start(input, claims) {
      for (let k = 0; k < count; k++) {
        const { port1, port2 } = new MessageChannel();
        const data: WorkerData = { input: { labelled: input.labelled, systems: input.systems }, claims, posted, port: port2 };
        const worker = new Worker(workerSource(workerPath()), { eval: true, workerData: data, transferList: [port2] });
        // a worker that fails to start or dies is told by the parts it never posts: its error is posted where it can be
        worker.on("error", () => {});
        workers.push(worker);
        ports.push(port1);
      }
    },
    receive(wait) {
      for (;;) {
        const seen = Atomics.load(posted, 0);
        const out: [number, PartResult][] = [];
        for (const port of ports) {
          for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
            const message = m.message as WorkerMessage;
            if ("error" in message) throw new Error(`a report thread failed: ${message.error}`);
            out.push([message.index, message.result]);
          }
        }
        if (out.length > 0 || !wait) return out;
        // until a worker posts again (it posts, then counts): no busy wait
        Atomics.wait(posted, 0, seen, 1000);
      }
    },
    stop() {
      for (const port of ports) port.close();
      for (const worker of workers) void worker.terminate();
    },
  };
}
