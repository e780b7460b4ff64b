/**
 * Attribution work in a process of its own (forked by report-process.ts
 * with tsx): the parent sends a task (tasks.ts), this answers with progress
 * messages, then the result (or the error's message), and exits; a report
 * is computed in BATON_BLAME_THREADS threads (report-threads.ts). Minutes of
 * CPU here do not hold up the requests of the app process that asked. An
 * orphan (its parent gone) stops at its next progress report. A ranking of
 * a stored trace ("rank-stored", rank-stored.ts) loads the trace here, from
 * the database the parent's DATABASE_URL names.
 */
import { availableParallelism } from "node:os";
import { setting } from "../config";
import type { ChildMessage } from "./report-process";
import type { StoredRankTask } from "./rank-stored";
import { threadHelpers } from "./report-threads";
import { runTask, type Task } from "./tasks";

const send = (message: ChildMessage, then: () => void = () => {}) => {
  if (!process.connected) process.exit(1);
  process.send!(message, then);
};

const failure = (error: unknown): ChildMessage => ({ ok: false, error: error instanceof Error ? error.message : String(error) });

process.once("message", (task: Task | StoredRankTask) => {
  if (task.task === "rank-stored") {
    // the database layer is loaded only for this task: the others stay free of it (and start faster)
    void import("./rank-stored")
      .then(({ rankStored }) => rankStored(task))
      .then((value): ChildMessage => ({ ok: true, value }), failure)
      .then((reply) => send(reply, () => process.exit(0)));
    return;
  }
  let reply: ChildMessage;
  try {
    // a report takes BATON_BLAME_THREADS threads: this one and workers beside it
    const helpers = task.task === "report" ? threadHelpers(Math.min(setting("BATON_BLAME_THREADS"), availableParallelism()) - 1) : undefined;
    reply = { ok: true, value: runTask(task, (progress) => send({ progress }), helpers) };
  } catch (error) {
    reply = failure(error);
  }
  send(reply, () => process.exit(0));
});
