import "server-only";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { Report, ReportInput } from "@/lib/blame/report";
import { rankStored, type StoredRankTask } from "./rank-stored";
import { runTask, type RankResult, type Task, type TaskResult } from "./tasks";

/**
 * Runs attribution work (tasks.ts: the report, a training, a ranking) in a
 * child process, so that the app process that asked keeps answering
 * requests meanwhile (a report over a hundred labelled runs is a minute of
 * CPU; ranking a trace of 100,000 events tens of seconds). The child is
 * lib/server/blame/report-child.ts under tsx, from the directory Baton runs
 * in; small work, or a checkout without that file, is done here. A big
 * trace's ranking is sent as the trace's row id: the child loads it. The child
 * reports its progress, and is killed at once when `signal` aborts (nobody
 * needs its result any more).
 */
// the child runs from the sources, under tsx, not from the build: the bundler is told not to follow the path
const childPath = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "blame", "report-child.ts");

/** Fewer labelled traces than this are scored (or trained on) in this process (a child's start costs about a second). */
export const IN_PROCESS_BELOW = 12;
/** A trace of fewer events than this is ranked in this process. */
export const RANK_IN_PROCESS_BELOW = 2_000;

export interface ElsewhereOptions {
  /** the share of the work done, 0..1 */
  onProgress?: (share: number) => void;
  /** aborting kills the child; the promise rejects with the signal's reason */
  signal?: AbortSignal;
}

export type ChildMessage = { progress: number } | { ok: true; value: unknown } | { ok: false; error: string };

function small(t: Task): boolean {
  if (t.task === "report") return t.input.labelled.length < IN_PROCESS_BELOW;
  if (t.task === "train") return t.labelled.length < IN_PROCESS_BELOW;
  return t.input.trace.events.length < RANK_IN_PROCESS_BELOW;
}

export async function elsewhere<T extends Task>(t: T, options: ElsewhereOptions = {}): Promise<TaskResult<T>> {
  const child = childPath();
  options.signal?.throwIfAborted();
  if (small(t) || !existsSync(child)) return runTask(t, options.onProgress);
  return inChild<TaskResult<T>>(child, t, options);
}

/**
 * A ranking of a stored trace (its row id) in a child process that loads the trace itself (rank-stored.ts): the
 * app process does not load a big trace's input nor send it through the pipe. Here when the child's file is absent.
 */
export async function rankStoredElsewhere(t: Omit<StoredRankTask, "task">, options: ElsewhereOptions = {}): Promise<RankResult> {
  const child = childPath();
  options.signal?.throwIfAborted();
  const task: StoredRankTask = { task: "rank-stored", ...t };
  if (!existsSync(child)) return rankStored(task);
  return inChild<RankResult>(child, task, options);
}

function inChild<R>(child: string, t: Task | StoredRankTask, options: ElsewhereOptions): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    // react-server: the database layer's modules ("server-only") load in the child as they do in the app
    const worker = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", child], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", abort);
      done();
    };
    const abort = () => {
      worker.kill("SIGKILL");
      const reason: unknown = options.signal!.reason;
      settle(() => reject(reason instanceof Error ? reason : new Error(String(reason))));
    };
    options.signal?.addEventListener("abort", abort, { once: true });
    worker.on("message", (reply: ChildMessage) => {
      if ("progress" in reply) options.onProgress?.(reply.progress);
      else if (reply.ok) settle(() => resolve(reply.value as R));
      else settle(() => reject(new Error(`attribution ${t.task}: ${reply.error}`)));
    });
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code, signal) => settle(() => reject(new Error(`the attribution ${t.task} process exited (${signal ?? `code ${code}`}) before answering`))));
    worker.send(t);
  });
}

/** The attribution report (lib/blame/report.ts) in a child process. */
export function attributionReportElsewhere(input: ReportInput, options: ElsewhereOptions = {}): Promise<Report> {
  return elsewhere({ task: "report", input }, options);
}
