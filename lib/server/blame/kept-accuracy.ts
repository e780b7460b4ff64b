import "server-only";
import type { Score, SystemAccuracy } from "@/lib/blame/scores";
import { pool } from "../db/client";
import { mayReadAll, storedScores } from "./evaluation";

export type KeptAccuracy = SystemAccuracy;

/**
 * The last finished scores of a system's labelled runs (what the Attribution page shows), read without scoring
 * anything: the newest scoring asked for that system whose runs the reader may all read; null when there is none.
 */
export async function keptAccuracy(system: string | null, readable: readonly string[] | null): Promise<KeptAccuracy | null> {
  if (system === null) return null;
  const { rows } = await pool().query<{ key: string; trace_keys: string[]; result: unknown }>(
    "SELECT key, trace_keys, result FROM blame_scorings WHERE state = 'done' AND system = $1 ORDER BY finished_at DESC LIMIT 5",
    [system],
  );
  for (const row of rows) {
    const result = storedScores(row.result, row.key);
    if (!result || result.traces === 0 || !(await mayReadAll(row.trace_keys, readable ?? undefined))) continue;
    const step_top1: Record<string, Score> = {};
    for (const m of result.methods) if (m.scores) step_top1[m.method] = m.scores.step.top1;
    return { system, best: result.best, step_top1 };
  }
  return null;
}
