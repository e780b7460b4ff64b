import "server-only";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { attributionReport, type Report, type ReportInput } from "@/lib/blame/report";

/**
 * Runs the attribution report (lib/blame/report.ts) in a child process, so
 * that the app process that asked keeps answering requests meanwhile (a
 * report over a few hundred labelled runs is minutes of CPU: nested CV).
 * The child is lib/server/blame/report-child.ts under tsx, from the
 * directory Baton runs in; a small report, or a checkout without that
 * file, is computed here.
 */
// the child runs from the sources, under tsx, not from the build: the bundler is told not to follow the path
const childPath = () => path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "server", "blame", "report-child.ts");

/** Fewer labelled traces than this are scored in this process (a child's start costs about a second). */
export const IN_PROCESS_BELOW = 12;

export async function attributionReportElsewhere(input: ReportInput): Promise<Report> {
  const child = childPath();
  if (input.labelled.length < IN_PROCESS_BELOW || !existsSync(child)) return attributionReport(input);
  return new Promise<Report>((resolve, reject) => {
    const worker = spawn(process.execPath, ["--import", "tsx", child], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let settled = false;
    worker.once("message", (reply: { ok: true; report: Report } | { ok: false; error: string }) => {
      settled = true;
      if (reply.ok) resolve(reply.report);
      else reject(new Error(`attribution report: ${reply.error}`));
    });
    worker.once("error", (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    worker.once("exit", (code, signal) => {
      if (!settled) reject(new Error(`the attribution report process exited (${signal ?? `code ${code}`}) before answering`));
      settled = true;
    });
    worker.send(input);
  });
}
