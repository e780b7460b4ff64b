import "server-only";
import PgBoss from "pg-boss";
import { pool, stopBeforeClose } from "../db/client";

/**
 * The job queue of every background job (judges, blame, dataset snapshots,
 * replays): pg-boss in its own schema (`pgboss`) of Baton's database,
 * sharing Baton's pg pool. Each user creates its own queues. Any number of
 * processes (the app, `npm run judge -- work`) may run workers; PostgreSQL's
 * SKIP LOCKED shares the jobs. Once started it is stopped by closeDatabase
 * (a script that stored a big trace queued a job, and exits when done).
 */

let started: Promise<PgBoss> | null = null;

export function boss(): Promise<PgBoss> {
  started ??= (async () => {
    const b = new PgBoss({ db: { executeSql: (text, values) => pool().query(text, values) }, schema: "pgboss" });
    b.on("error", (error) => console.error("[baton] job queue:", error.message));
    await b.start();
    stopBeforeClose(stopBoss);
    return b;
  })();
  return started;
}

export async function stopBoss(): Promise<void> {
  if (!started) return;
  const b = await started;
  started = null;
  await b.stop({ graceful: false, wait: true });
}

const created = new Map<string, Promise<void>>();
let creating: Promise<void> = Promise.resolve();

/**
 * The job queue with the queue `name` created (once per process; a failed creation is tried again on the next call).
 * `policy`: pg-boss's queue policy ("stately": at most one job queued and one active per singleton key).
 */
export async function bossWithQueue(name: string, policy?: "stately"): Promise<PgBoss> {
  const b = await boss();
  let ready = created.get(name);
  if (!ready) {
    // one creation at a time in a process: two at once can deadlock in pg-boss's create_queue (each makes its queue's partition)
    ready = creating.then(() => b.createQueue(name, policy ? { name, policy } : undefined));
    creating = ready.catch(() => {});
    created.set(name, ready);
    ready.catch(() => created.delete(name));
  }
  await ready;
  return b;
}
