import "server-only";
import type PgBoss from "pg-boss";
import { boss } from "../jobs/boss";

/** The queue of judge units (one model call each), in the shared job queue. */
export const JUDGE_QUEUE = "judge-unit";

let created: Promise<void> | null = null;

/** The job queue, with the judge units' queue created. */
export async function judgeBoss(): Promise<PgBoss> {
  const b = await boss();
  created ??= b.createQueue(JUDGE_QUEUE).catch((error: unknown) => {
    created = null;
    throw error;
  });
  await created;
  return b;
}
