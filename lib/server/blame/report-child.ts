/**
 * Attribution work in a process of its own (forked by report-process.ts
 * with tsx): the parent sends a task (tasks.ts), this answers with progress
 * messages, then the result (or the error's message), and exits. Minutes of
 * CPU here do not hold up the requests of the app process that asked. An
 * orphan (its parent gone) stops at its next progress report.
 */
import type { ChildMessage } from "./report-process";
import { runTask, type Task } from "./tasks";

const send = (message: ChildMessage, then: () => void = () => {}) => {
  if (!process.connected) process.exit(1);
  process.send!(message, then);
};

process.once("message", (task: Task) => {
  let reply: ChildMessage;
  try {
    reply = { ok: true, value: runTask(task, (progress) => send({ progress })) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  send(reply, () => process.exit(0));
});
