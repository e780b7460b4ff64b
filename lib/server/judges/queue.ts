import "server-only";
import type PgBoss from "pg-boss";
import { bossWithQueue } from "../jobs/boss";

/** The queue of judge units (one model call each), in the shared job queue. */
export const JUDGE_QUEUE = "judge-unit";

/** The job queue, with the judge units' queue created. */
export const judgeBoss = (): Promise<PgBoss> => bossWithQueue(JUDGE_QUEUE);
