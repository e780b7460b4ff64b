/**
 * Attribution work in a process of its own (forked by report-process.ts
 * with tsx): the parent sends a task (tasks.ts), this answers with progress
 * messages, then the result (or the error's message), and exits; a report
 * is computed in BATON_BLAME_THREADS threads (report-threads.ts). Minutes of
 * CPU here do not hold up the requests of the app process that asked. An
 * orphan (its parent gone) stops at its next progress report.
 */
import { availableParallelism } from "node:os";
import { setting } from "../config";
import type { ChildMessage } from "./report-process";
import { threadHelpers } from "./report-threads";
import { runTask, type Task } from "./tasks";

const send = (message: ChildMessage, then: () => void = () => {}) => {
  if (!process.connected) process.exit(1);
  process.send!(message, then);
};

process.once("message", (task: Task) => {
  let reply: ChildMessage;
  try {
    // a report takes BATON_BLAME_THREADS threads: this one and workers beside it
    const helpers = task.task === "report" ? threadHelpers(Math.min(setting("BATON_BLAME_THREADS"), availableParallelism()) - 1) : undefined;
    reply = { ok: true, value: runTask(task, (progress) => send({ progress }), helpers) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  send(reply, () => process.exit(0));
});
