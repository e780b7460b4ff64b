import "server-only";
import { methodByName, type LearnedModel } from "@/lib/blame";
import { blameInputOf } from "./labelled";
import { runTask, type RankResult } from "./tasks";

/**
 * Ranking a stored trace, its blame input loaded by whoever ranks it: the
 * child process (report-child.ts) for a big trace, so that the app process
 * neither loads (2 s and 100 MB at 100,000 events, in blocks of its event
 * loop) nor sends (tens of MB through the pipe) what the child needs.
 */
export interface StoredRankTask {
  task: "rank-stored";
  method: string;
  model: LearnedModel | null;
  traceDbId: number;
  groupId: string | null;
  /** only the first `keep` events of the ranking come back (with `total_events`) */
  keep?: number;
  /** the trace's key: a method that reads the judges' answers (`judged`) ranks with the trace's */
  traceKey?: string;
}

export async function rankStored(t: StoredRankTask): Promise<RankResult> {
  const input = await blameInputOf(t.traceDbId, t.groupId, methodByName(t.method)?.judged ? t.traceKey : undefined);
  return runTask({ task: "rank", method: t.method, model: t.model, input, keep: t.keep });
}
