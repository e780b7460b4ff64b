/**
 * The attribution report in a process of its own (forked by
 * report-process.ts with tsx): the parent sends a ReportInput, this answers
 * with progress messages, then the report (or the error's message), and
 * exits. Minutes of CPU here do not hold up the requests of the app process
 * that asked. An orphan (its parent gone) stops at its next progress report.
 */
import { attributionReport, type ReportInput } from "../../blame/report";
import type { ChildMessage } from "./report-process";

const send = (message: ChildMessage, then: () => void = () => {}) => {
  if (!process.connected) process.exit(1);
  process.send!(message, then);
};

process.once("message", (input: ReportInput) => {
  let reply: ChildMessage;
  try {
    reply = { ok: true, report: attributionReport(input, (progress) => send({ progress })) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  send(reply, () => process.exit(0));
});
