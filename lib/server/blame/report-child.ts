/**
 * The attribution report in a process of its own (forked by
 * report-process.ts with tsx): the parent sends a ReportInput, this answers
 * with the report (or the error's message) and exits. Minutes of CPU here do
 * not hold up the requests of the app process that asked.
 */
import { attributionReport, type ReportInput } from "../../blame/report";

process.once("message", (input: ReportInput) => {
  let reply: { ok: true; report: ReturnType<typeof attributionReport> } | { ok: false; error: string };
  try {
    reply = { ok: true, report: attributionReport(input) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  process.send!(reply, () => process.exit(0));
});
