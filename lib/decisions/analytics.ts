/**
 * Decision analytics (docs/metrics.md, "Decision analytics and group
 * divergence"): for each sub-decision, how often it is taken and what
 * follows (success rate with its Wilson interval, mean R_total), split by
 * bucket and by checkpoint, and the within-group difference. The server adds
 * the tallies up in SQL; `tallyRows` adds them up in JS from one row per trace
 * (the benchmark's baseline and the tests' reference).
 */
import { SPEC_VERSION, type SpecVersion } from "../metrics/types";
import { wilsonInterval, type SuccessRate } from "../stats/wilson";
import { BUCKET_DIMENSIONS, compareBuckets, DECISIONS, NO_STOP, NO_VERDICT, type BucketDimension, type DecisionKey, type TraceBuckets } from "./buckets";
import { addStratum, differenceFromSums, EMPTY_SUMS, type StratumSums, type WithinGroupDifference } from "./difference";

export const OBSERVATIONAL_CAVEAT =
  "Observational: these rates compare the runs that took a decision with the runs that did not, on the policy's own logs. " +
  "The branch not taken was never run for the same state, so a difference is not the effect of the decision (harder tasks may draw more spawns). " +
  "Only the within-group difference compares rollouts of the same task, and even there the policy chose which rollouts took the decision.";

export interface Tally {
  traces: number;
  /** Traces with a non-null E1, and how many of them have E1 = 1. */
  n: number;
  successes: number;
  /** Sum of R_total over the traces. */
  r_sum: number;
}

export const emptyTally = (): Tally => ({ traces: 0, n: 0, successes: 0, r_sum: 0 });

export interface Outcome {
  traces: number;
  e1: SuccessRate;
  mean_r_total: number | null;
}

export function outcomeOf(t: Tally): Outcome {
  const w = wilsonInterval(t.successes, t.n);
  return {
    traces: t.traces,
    e1: w ? { rate: w.rate, low: w.low, high: w.high, n: t.n } : { rate: null, low: null, high: null, n: 0 },
    mean_r_total: t.traces > 0 ? t.r_sum / t.traces : null,
  };
}

export interface DecisionTallies {
  total: Tally;
  taken: Record<DecisionKey, { taken: Tally; not_taken: Tally }>;
  buckets: Record<BucketDimension, Map<string, Tally>>;
  checkpoints: Map<string | null, { tally: Tally; taken: Record<DecisionKey, number> }>;
  within: Record<DecisionKey, StratumSums>;
}

export interface BucketRow extends Outcome {
  bucket: string;
}

export interface DecisionBlock {
  key: DecisionKey;
  label: string;
  question: string;
  taken: Outcome;
  not_taken: Outcome;
  within_group: WithinGroupDifference;
  buckets: { by: BucketDimension; label: string; rows: BucketRow[] }[];
}

export interface CheckpointRow extends Outcome {
  policy_version: string | null;
  /** Traces of the checkpoint that took each decision. */
  taken: Record<DecisionKey, number>;
}

export interface DecisionReport {
  version: SpecVersion;
  traces: number;
  caveat: string;
  overall: Outcome;
  decisions: DecisionBlock[];
  checkpoints: CheckpointRow[];
}

const byDecision = <T>(make: () => T): Record<DecisionKey, T> =>
  Object.fromEntries(DECISIONS.map((d) => [d.key, make()])) as Record<DecisionKey, T>;

export function emptyTallies(): DecisionTallies {
  return {
    total: emptyTally(),
    taken: byDecision(() => ({ taken: emptyTally(), not_taken: emptyTally() })),
    buckets: Object.fromEntries(BUCKET_DIMENSIONS.map((d) => [d.by, new Map()])) as Record<BucketDimension, Map<string, Tally>>,
    checkpoints: new Map(),
    within: byDecision(() => EMPTY_SUMS),
  };
}

const compareVersions = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a.localeCompare(b, "en", { numeric: true });

export function decisionReport(t: DecisionTallies): DecisionReport {
  return {
    version: SPEC_VERSION,
    traces: t.total.traces,
    caveat: OBSERVATIONAL_CAVEAT,
    overall: outcomeOf(t.total),
    decisions: DECISIONS.map((d) => ({
      key: d.key,
      label: d.label,
      question: d.question,
      taken: outcomeOf(t.taken[d.key].taken),
      not_taken: outcomeOf(t.taken[d.key].not_taken),
      within_group: differenceFromSums(t.within[d.key]),
      buckets: BUCKET_DIMENSIONS.filter((b) => b.decision === d.key).map((b) => ({
        by: b.by,
        label: b.label,
        rows: [...t.buckets[b.by]].sort(([x], [y]) => compareBuckets(x, y)).map(([bucket, tally]) => ({ bucket, ...outcomeOf(tally) })),
      })),
    })),
    checkpoints: [...t.checkpoints]
      .sort(([a], [b]) => compareVersions(a, b))
      .map(([policy_version, c]) => ({ policy_version, ...outcomeOf(c.tally), taken: c.taken })),
  };
}

/** One trace as the analytics read it (the stored columns). */
export interface DecisionRow {
  group_id: string | null;
  e1: 0 | 1 | null;
  r_total: number;
  policy_version: string | null;
  stop_reason: string | null;
  verdict: string | null;
  taken: Record<DecisionKey, boolean>;
  buckets: TraceBuckets;
}

function add(t: Tally, r: DecisionRow): void {
  t.traces++;
  t.r_sum += r.r_total;
  if (r.e1 !== null) {
    t.n++;
    t.successes += r.e1;
  }
}

function addTo(m: Map<string, Tally>, key: string, r: DecisionRow): void {
  let t = m.get(key);
  if (!t) m.set(key, (t = emptyTally()));
  add(t, r);
}

/** The tallies of {@link decisionReport} from one row per trace, in JS. O(rows). */
export function tallyRows(rows: Iterable<DecisionRow>): DecisionTallies {
  const t = emptyTallies();
  const groups = new Map<string, Record<DecisionKey, { n1: number; a: number; n0: number; c: number }>>();
  for (const r of rows) {
    add(t.total, r);
    for (const d of DECISIONS) add(r.taken[d.key] ? t.taken[d.key].taken : t.taken[d.key].not_taken, r);
    addTo(t.buckets.agents_spawned, r.buckets.agents_spawned, r);
    for (const role of r.buckets.delegate_roles) addTo(t.buckets.delegate_role, role, r);
    addTo(t.buckets.messages_per_agent, r.buckets.messages_per_agent, r);
    addTo(t.buckets.aggregate_fan_in, r.buckets.aggregate_fan_in, r);
    addTo(t.buckets.stop_reason, r.stop_reason ?? NO_STOP, r);
    addTo(t.buckets.verdict, r.verdict ?? NO_VERDICT, r);
    let c = t.checkpoints.get(r.policy_version);
    if (!c) t.checkpoints.set(r.policy_version, (c = { tally: emptyTally(), taken: byDecision(() => 0) }));
    add(c.tally, r);
    for (const d of DECISIONS) if (r.taken[d.key]) c.taken[d.key]++;
    if (r.group_id !== null && r.e1 !== null) {
      let g = groups.get(r.group_id);
      if (!g) groups.set(r.group_id, (g = byDecision(() => ({ n1: 0, a: 0, n0: 0, c: 0 }))));
      for (const d of DECISIONS) {
        const s = g[d.key];
        if (r.taken[d.key]) {
          s.n1++;
          s.a += r.e1;
        } else {
          s.n0++;
          s.c += r.e1;
        }
      }
    }
  }
  for (const g of groups.values()) for (const d of DECISIONS) t.within[d.key] = addStratum(t.within[d.key], g[d.key]);
  return t;
}
