import "server-only";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { attributionReport, type Report, type ReportInput } from "@/lib/blame/report";

/**
 * Runs the attribution report (lib/blame/report.ts) in a child process, so
 * that the app process that asked keeps answering requests meanwhile (a
 * report over a hundred labelled runs is a minute of CPU: nested CV).
 * The child is lib/server/blame/report-child.ts under tsx, from the
 * directory Baton runs in; a small report, or a checkout without that
 * file, is computed here. The child reports its progress, and is killed
 * at once when `signal` aborts (nobody needs its result any more).
 */
// the child runs from the sources, under tsx, not from the build: the bundler is told not to follow the path
const childPath = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "blame", "report-child.ts");

/** Fewer labelled traces than this are scored in this process (a child's start costs about a second). */
export const IN_PROCESS_BELOW = 12;

export interface ReportOptions {
  /** the share of the work done, 0..1 */
  onProgress?: (share: number) => void;
  /** aborting kills the child; the promise rejects with the signal's reason */
  signal?: AbortSignal;
  /** called with the child's pid once it runs (tests watch it) */
  onSpawn?: (pid: number) => void;
}

export type ChildMessage = { progress: number } | { ok: true; report: Report } | { ok: false; error: string };

export async function attributionReportElsewhere(input: ReportInput, options: ReportOptions = {}): Promise<Report> {
  const child = childPath();
  options.signal?.throwIfAborted();
  if (input.labelled.length < IN_PROCESS_BELOW || !existsSync(child)) return attributionReport(input, options.onProgress);
  return new Promise<Report>((resolve, reject) => {
    const worker = spawn(process.execPath, ["--import", "tsx", child], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    if (worker.pid !== undefined) options.onSpawn?.(worker.pid);
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
      else if (reply.ok) settle(() => resolve(reply.report));
      else settle(() => reject(new Error(`attribution report: ${reply.error}`)));
    });
    worker.once("error", (error) => settle(() => reject(error)));
    worker.once("exit", (code, signal) => settle(() => reject(new Error(`the attribution report process exited (${signal ?? `code ${code}`}) before answering`))));
    worker.send(input);
  });
}
