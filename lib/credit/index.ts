/**
 * Credit assignment (SPEC.md section 3) and the JSON of
 * `GET /api/traces/{id}/credit` (section 7).
 *
 *   trace -> prepareTrace (analysis, metrics) -> rewards(token_budget)
 *         -> ccp | uniform | terminal | mc_return | grpo | gigpo
 *         -> columns (typed arrays) -> toCreditResponse (JSON)
 */
import { SPEC_VERSION, type SpecVersion } from "../metrics/types";
import { rTotal } from "../rewards/index";
import type { HumanLabels } from "../rewards/labels";
import { BUILTIN_PRESETS, type FamilyWeights, type WeightPreset } from "../rewards/presets";
import { FAMILIES, type Family, type Trace } from "../trace/types";
import { immediateRewards, mcReturns, terminalCredit, uniformCredit } from "./baselines";
import { ccpCredits, combineCredits, normalizeCredits, type FamilyCredits } from "./ccp";
import { gigpoCredit, grpoCredit, groupOf, type GroupMember } from "./group";
import { prepareTrace, type PreparedTrace } from "./prepare";

export { GroupTooSmallError, type GroupMember } from "./group";
export { prepareTrace, type PreparedTrace } from "./prepare";
export type { FamilyCredits } from "./ccp";

export const CREDIT_METHODS = ["ccp", "uniform", "terminal", "mc_return", "grpo", "gigpo"] as const;
export type CreditMethod = (typeof CREDIT_METHODS)[number];
export const DEFAULT_CREDIT_METHOD: CreditMethod = "ccp";

export interface CreditOptions {
  readonly method?: CreditMethod;
  /** Preset with any `w.<family>` overrides already applied; default uniform. */
  readonly preset?: WeightPreset;
  /** ccp only: scale each family's credits to sum to R_f. */
  readonly normalize?: boolean;
  /** grpo/gigpo: the rollouts of the group (the target may be among them). */
  readonly group?: readonly GroupMember[];
}

/** Credit as typed arrays indexed by event position: what export and persistence use. */
export interface CreditColumns {
  readonly method: CreditMethod;
  readonly preset: WeightPreset;
  /** Whether normalize was applied (only ever for ccp). */
  readonly normalize: boolean;
  readonly rTotal: number;
  readonly families: Readonly<Record<Family, number | null>>;
  /** C(v), or the method's advantage for the baselines. */
  readonly total: Float64Array;
  /** credit_f(v) for ccp, null for the baselines. */
  readonly byFamily: FamilyCredits | null;
}

export interface CreditEvent {
  id: string;
  total: number;
  /** All eight families for ccp; empty for the baselines. */
  by_family: Partial<Record<Family, number>>;
}

export interface CreditResponse {
  version: SpecVersion;
  method: CreditMethod;
  preset: string;
  weights: FamilyWeights;
  normalize: boolean;
  r_total: number;
  families: Record<Family, number | null>;
  /** In event order. */
  events: CreditEvent[];
}

/**
 * Credit of every event of a prepared trace under one method and preset.
 * Throws GroupTooSmallError for grpo/gigpo without a group of >= 2.
 * O(V + E) (plus the group's traces for grpo/gigpo).
 */
export function creditColumns(p: PreparedTrace, options: CreditOptions = {}): CreditColumns {
  const method = options.method ?? DEFAULT_CREDIT_METHOD;
  const preset = options.preset ?? BUILTIN_PRESETS.uniform;
  const rewards = p.rewards(preset.token_budget);
  const total = rTotal(rewards.families, preset.weights);
  const n = p.analysis.graph.n;
  const base = { method, preset, rTotal: total, families: rewards.families, normalize: false, byFamily: null };
  switch (method) {
    case "ccp": {
      const byFamily = ccpCredits(p.analysis, rewards);
      const normalize = options.normalize === true;
      if (normalize) normalizeCredits(byFamily, rewards.families);
      return { ...base, normalize, byFamily, total: combineCredits(byFamily, preset.weights) };
    }
    case "uniform":
      return { ...base, total: uniformCredit(n, total) };
    case "terminal":
      return { ...base, total: terminalCredit(p.analysis.graph, total) };
    case "mc_return":
      return { ...base, total: mcReturns(p.analysis.graph, immediateRewards(rewards, preset.weights, n)) };
    case "grpo":
      return { ...base, total: grpoCredit(groupOf(p, options.group ?? []), preset) };
    case "gigpo":
      return { ...base, total: gigpoCredit(groupOf(p, options.group ?? []), preset) };
  }
}

/** The API JSON of credit columns; events in event order. O(V) objects, by design of the API. */
export function toCreditResponse(p: PreparedTrace, c: CreditColumns): CreditResponse {
  const { graph } = p.analysis;
  const events: CreditEvent[] = new Array<CreditEvent>(graph.n);
  for (let k = 0; k < graph.n; k++) {
    const i = graph.order[k]!;
    const byFamily: Partial<Record<Family, number>> = {};
    if (c.byFamily) for (const f of FAMILIES) byFamily[f] = c.byFamily[f][i]!;
    events[k] = { id: graph.events[i]!.id, total: c.total[i]!, by_family: byFamily };
  }
  return { ...creditHeader(c), events };
}

/** What every credit answer states: version, method, preset, weights, options, R_total and R_f (SPEC.md section 3). */
export function creditHeader(c: CreditColumns): Omit<CreditResponse, "events"> {
  return {
    version: SPEC_VERSION,
    method: c.method,
    preset: c.preset.name,
    weights: { ...c.preset.weights },
    normalize: c.normalize,
    r_total: c.rTotal,
    families: { ...c.families },
  };
}

/** One call from trace to API JSON. */
export function computeCredit(trace: Trace, options: CreditOptions & { labels?: HumanLabels } = {}): CreditResponse {
  const p = prepareTrace(trace, options.labels);
  return toCreditResponse(p, creditColumns(p, options));
}
