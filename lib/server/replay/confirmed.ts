import "server-only";
import type { ConfirmedSuspect } from "@/lib/api/replay";
import { pool } from "../db/client";
import { loadCalls } from "../calls/store";
import { traceEffects } from "./effects";

/**
 * Suspects confirmed by replay (SPEC.md section 11, docs/replay.md
 * "Confirmed by replay"): the calls of a failed trace whose corrections
 * turned it into a success in a majority of at least 3 samples, with the
 * events each produced (what an attribution method ranks), so that the
 * blame answer can mark its suspects and a person can name one the
 * decisive error with the evidence in words.
 */

const f2 = (x: number | null) => (x === null ? "–" : x.toFixed(2));

export async function confirmedSuspects(trace: { id: number; traceId: string; project: string }, origin: string): Promise<ConfirmedSuspect[]> {
  // most traces have no correction: one short look before any effect is measured
  const { rowCount } = await pool().query("SELECT 1 FROM interventions WHERE trace_id = $1 AND intent = 'correct' LIMIT 1", [trace.id]);
  if (rowCount === 0) return [];
  const effects = await traceEffects(trace, "uniform", origin);
  const calls = new Map((await loadCalls(trace.id)).map((c) => [c.id, c]));
  return effects.calls.filter((c) => c.confirmed_by_replay === true && c.corrections !== null).map((c) => {
    const call = calls.get(c.call_id);
    const k = c.corrections!;
    const ids = c.interventions.filter((i) => i.intent === "correct").map((i) => i.id);
    return {
      call_id: c.call_id, call_index: c.call_index, agent: call?.agent ?? "", event_ids: call?.events ?? [], interventions: ids,
      samples: k.samples, succeeded: k.succeeded, effect: k.effect!, low: k.low, high: k.high,
      evidence: `Confirmed by replay: correcting ${c.call_id}${call ? ` (${call.agent})` : ""} turned the failed run into a success in ${k.succeeded} of ${k.samples} forks (effect ${k.effect! >= 0 ? "+" : ""}${f2(k.effect)}, 95 % interval [${f2(k.low)}, ${f2(k.high)}]; intervention${ids.length > 1 ? "s" : ""} ${ids.join(", ")}).`,
    };
  });
}
