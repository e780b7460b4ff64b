import "server-only";
import type { EffectsResponse } from "@/lib/api/replay";
import { creditColumns, CREDIT_METHODS, GroupTooSmallError, prepareTrace, type CreditMethod } from "@/lib/credit";
import { computeE1 } from "@/lib/metrics/e1";
import { SPEC_VERSION } from "@/lib/metrics/types";
import { agreement, confirmedByReplay, measuredEffect, outcomeOf, signedEffect, type Effect } from "@/lib/replay/effects";
import type { EditIntent } from "@/lib/replay/edit";
import { rTotal, resolvePreset, type WeightPreset } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { loadCalls } from "../calls/store";
import { ApiError } from "../errors";
import { humanLabels } from "../queries/annotations";
import { loadGroup, loadTraceById } from "../queries/load-trace";
import { userPresets } from "../queries/presets";
import { interventionsOfTrace, type RunView } from "./list";
import { pushTo } from "@/lib/util/group";

/**
 * `GET /api/traces/{id}/effects` (SPEC.md section 11, docs/replay.md
 * "Effects"): per edited call, the measured effect of its interventions
 * against the baseline (the unchanged replays of T when any is stored and
 * did not diverge, else T itself), and per credit method the agreement of
 * the call's credit (the sum of C(v) over its events) with the effects.
 * Forks that diverged before the edit, and forks not yet stored, do not count.
 */

async function outcomeOfTrace(trace: Trace, preset: WeightPreset): Promise<{ value: number; binary: boolean }> {
  const { labels } = await humanLabels(trace.trace_id);
  const p = prepareTrace(trace, labels);
  return outcomeOf(computeE1(trace, labels), rTotal(p.rewards(preset.token_budget).families, preset.weights));
}

async function outcomesOf(runs: readonly RunView[], preset: WeightPreset) {
  const measured = runs.filter((r) => r.state === "stored" && r.divergence === null && r.trace_db_id !== null);
  return Promise.all(measured.map(async (r) => ({ run_key: r.run_key, ...(await outcomeOfTrace(await loadTraceById(r.trace_db_id!), preset)) })));
}

export interface CallEffect extends Effect {
  call_id: string;
  call_index: number;
  /** measured fork runs (stored, no divergence), diverged runs, runs not stored yet */
  samples: number;
  divergences: number;
  pending: number;
  /** the effect as it enters agreement: the mean over its interventions of their effects, reversed for removal and neutralising edits */
  signed_effect: number | null;
  /** the call's corrections (intent "correct") turned a failed run into a success in a majority of >= 3 of their samples (null: no correction, or cannot say) */
  confirmed_by_replay: boolean | null;
  /** the forks of the call's corrections pooled (null when it has none): what confirms it */
  corrections: { samples: number; succeeded: number; effect: number | null; low: number | null; high: number | null } | null;
  credit: Record<CreditMethod, number | null>;
  interventions: { id: number; intent: string; effect: number | null; low: number | null; high: number | null; samples: number; divergences: number; pending: number }[];
}

export async function traceEffects(trace: { id: number; traceId: string; project: string }, presetName: string, origin: string): Promise<EffectsResponse> {
  const preset = resolvePreset(presetName, {}, await userPresets());
  if (!preset) throw new ApiError(400, "invalid_parameter", `unknown preset "${presetName}"`, [{ path: "preset", message: `unknown preset "${presetName}"` }]);
  const original = await loadTraceById(trace.id);
  const calls = await loadCalls(trace.id);
  const { interventions, replays } = await interventionsOfTrace(trace.id, trace.project, origin);

  const replayOutcomes = await outcomesOf(replays, preset);
  const baselineKind = replayOutcomes.length > 0 ? "replays" : "original";
  const baseline = replayOutcomes.length > 0 ? replayOutcomes : [{ run_key: null, ...(await outcomeOfTrace(original, preset)) }];

  // credit of each call under every method: the sum of C(v) over the events it produced
  const { labels } = await humanLabels(trace.traceId);
  const prepared = prepareTrace(original, labels);
  const indexOf = new Map(prepared.analysis.graph.events.map((e, i) => [e.id, i]));
  const group = original.group_id ? await Promise.all((await loadGroup(original.group_id)).map(async (t) => ({ trace: t, labels: (await humanLabels(t.trace_id)).labels }))) : [];
  const creditByMethod = new Map<CreditMethod, Float64Array | null>();
  for (const method of CREDIT_METHODS) {
    try {
      creditByMethod.set(method, creditColumns(prepared, { method, preset, group }).total);
    } catch (error) {
      if (!(error instanceof GroupTooSmallError)) throw error;
      creditByMethod.set(method, null);
    }
  }
  const callCredit = (eventIds: readonly string[]) => Object.fromEntries(CREDIT_METHODS.map((m) => {
    const total = creditByMethod.get(m);
    return [m, total == null ? null : eventIds.reduce((s, id) => s + (indexOf.has(id) ? total[indexOf.get(id)!]! : 0), 0)];
  })) as Record<CreditMethod, number | null>;

  const byCall = new Map<string, typeof interventions>();
  for (const i of interventions) pushTo(byCall, i.call_id, i);
  const out: CallEffect[] = [];
  for (const [callId, list] of byCall) {
    const perIntervention = await Promise.all(list.map(async (i) => {
      const forks = await outcomesOf(i.runs, preset);
      const e = measuredEffect(forks, baseline);
      return { i, forks, e, divergences: i.runs.filter((r) => r.divergence !== null).length, pending: i.runs.filter((r) => r.divergence === null && r.state !== "stored").length };
    }));
    const pooled = measuredEffect(perIntervention.flatMap((x) => x.forks), baseline);
    const corrected = perIntervention.filter((x) => x.i.intent === "correct");
    const corrections = corrected.length === 0 ? null : measuredEffect(corrected.flatMap((x) => x.forks), baseline);
    const signed = perIntervention.filter((x) => x.e.effect !== null).map((x) => signedEffect(x.e.effect!, x.i.intent as EditIntent));
    const call = calls.find((c) => c.id === callId);
    out.push({
      call_id: callId, call_index: list[0]!.call_index, ...pooled,
      samples: pooled.forks.n,
      divergences: perIntervention.reduce((s, x) => s + x.divergences, 0),
      pending: perIntervention.reduce((s, x) => s + x.pending, 0),
      signed_effect: signed.length === 0 ? null : signed.reduce((a, b) => a + b, 0) / signed.length,
      confirmed_by_replay: corrections === null ? null : confirmedByReplay(corrections),
      corrections: corrections === null ? null : { samples: corrections.forks.n, succeeded: corrected.flatMap((x) => x.forks).filter((o) => o.value === 1).length, effect: corrections.effect, low: corrections.low, high: corrections.high },
      credit: callCredit(call?.events ?? []),
      interventions: perIntervention.map((x) => ({ id: x.i.id, intent: x.i.intent, effect: x.e.effect, low: x.e.low, high: x.e.high, samples: x.e.forks.n, divergences: x.divergences, pending: x.pending })),
    });
  }
  out.sort((a, b) => a.call_index - b.call_index);
  const measured = out.filter((c) => c.signed_effect !== null);
  const agreementByMethod = Object.fromEntries(CREDIT_METHODS.map((m) => {
    const pairs = measured.filter((c) => c.credit[m] !== null).map((c) => ({ credit: c.credit[m]!, effect: c.signed_effect! }));
    return [m, { spearman: pairs.length < measured.length ? null : agreement(pairs), calls: pairs.length }];
  })) as EffectsResponse["agreement"];
  return {
    version: SPEC_VERSION,
    trace_id: trace.traceId,
    preset: preset.name,
    baseline: { kind: baselineKind, runs: baseline.map((b) => b.run_key).filter((k) => k !== null), outcomes: baseline.map((b) => b.value) },
    calls: out,
    agreement: agreementByMethod,
  };
}
