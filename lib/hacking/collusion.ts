/**
 * Verifier collusion: a judge drifting with the policy it scores. Per
 * judge, family and project, the judge's mean signed difference with people
 * (judge - people, SPEC.md section 5) at each checkpoint
 * (metadata.policy_version) minus the same at its first checkpoint with
 * enough units. A judge that grows more lenient than people as the policy
 * trains is the pattern; one that is uniformly lenient is a bias, not drift.
 */
import { COLLUSION_MIN_UNITS, THRESHOLDS } from "./thresholds";
import { pushTo } from "../util/group";

export interface CollusionInput {
  project: string;
  judge: string;
  family: string;
  policy_version: string | null;
  units: number;
  mean_signed_difference: number | null;
}

export interface CollusionRow {
  project: string;
  judge: string;
  family: string;
  policy_version: string;
  units: number;
  mean_signed_difference: number | null;
  /** The checkpoint the drift is measured from; null when no checkpoint has enough units. */
  baseline_policy_version: string | null;
  /** mean_signed_difference minus the baseline's; null without a baseline or with too few units here. */
  value: number | null;
  threshold: number;
  flagged: boolean;
}

/**
 * Collusion rows in checkpoint order (the order given, e.g. each version's
 * first stored trace first) per (project, judge, family). Groups without a
 * policy_version are no checkpoint and are left out.
 */
export function collusionByCheckpoint(groups: readonly CollusionInput[], checkpointOrder: readonly string[]): CollusionRow[] {
  const rank = new Map(checkpointOrder.map((v, i) => [v, i]));
  const byJudge = new Map<string, CollusionInput[]>();
  for (const g of groups) {
    if (g.policy_version === null) continue;
    const key = JSON.stringify([g.project, g.judge, g.family]);
    pushTo(byJudge, key, g);
  }
  const rows: CollusionRow[] = [];
  const threshold = THRESHOLDS.verifier_collusion;
  const order = (g: CollusionInput) => rank.get(g.policy_version!) ?? Number.MAX_SAFE_INTEGER;
  for (const list of [...byJudge.values()].sort((x, y) => compareHeads(x[0]!, y[0]!))) {
    list.sort((x, y) => order(x) - order(y) || x.policy_version!.localeCompare(y.policy_version!));
    const enough = (g: CollusionInput) => g.units >= COLLUSION_MIN_UNITS && g.mean_signed_difference !== null;
    const base = list.find(enough);
    for (const g of list) {
      const value = base && enough(g) ? g.mean_signed_difference! - base.mean_signed_difference! : null;
      rows.push({
        project: g.project, judge: g.judge, family: g.family, policy_version: g.policy_version!, units: g.units,
        mean_signed_difference: g.mean_signed_difference, baseline_policy_version: base?.policy_version ?? null,
        value, threshold, flagged: value !== null && value >= threshold,
      });
    }
  }
  return rows;
}

function compareHeads(x: CollusionInput, y: CollusionInput): number {
  return x.project.localeCompare(y.project) || x.judge.localeCompare(y.judge) || x.family.localeCompare(y.family);
}
