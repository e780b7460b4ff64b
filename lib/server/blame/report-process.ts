import "server-only";
import { fork } from "node:child_process";
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
const CHILD = path.join(process.cwd(), "lib", "server", "blame", "report-child.ts");

/** Fewer labelled traces than this are scored in this process (a child's start costs about a second). */
export const IN_PROCESS_BELOW = 12;

export async function attributionReportElsewhere(input: ReportInput): Promise<Report> {
  if (input.labelled.length < IN_PROCESS_BELOW || !existsSync(CHILD)) return attributionReport(input);
  return new Promise<Report>((resolve, reject) => {
    const child = fork(CHILD, [], { execArgv: ["--import", "tsx"], serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let settled = false;
    child.once("message", (reply: { ok: true; report: Report } | { ok: false; error: string }) => {
      settled = true;
      if (reply.ok) resolve(reply.report);
      else reject(new Error(`attribution report: ${reply.error}`));
    });
    child.once("error", (error) => {
      if (!settled) reject(error);
      settled = true;
    });
    child.once("exit", (code, signal) => {
      if (!settled) reject(new Error(`the attribution report process exited (${signal ?? `code ${code}`}) before answering`));
      settled = true;
    });
    child.send(input);
  });
}
