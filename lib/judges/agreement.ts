import { krippendorffAlpha } from "../stats/krippendorff";

/**
 * How far a judge can be trusted on one family (SPEC.md section 5): over
 * the units both the judge and at least one person labelled, Krippendorff's
 * alpha (interval) with the judge as one annotator and the people's mean as
 * the other, the mean signed difference (judge - people), and the points of
 * a scatter judge vs human mean.
 */
export interface PairedUnit {
  readonly judge: number;
  readonly human_mean: number;
}

export interface Agreement {
  units: number;
  alpha: number | null;
  mean_signed_difference: number | null;
  points: PairedUnit[];
}

export function judgeAgreement(units: Iterable<{ judge: number; humans: readonly number[] }>): Agreement {
  const points: PairedUnit[] = [];
  for (const u of units) {
    if (u.humans.length === 0) continue;
    points.push({ judge: u.judge, human_mean: u.humans.reduce((a, b) => a + b, 0) / u.humans.length });
  }
  const alpha = krippendorffAlpha(points.map((p) => [p.judge, p.human_mean]));
  const msd = points.length === 0 ? null : points.reduce((s, p) => s + (p.judge - p.human_mean), 0) / points.length;
  return { units: points.length, alpha, mean_signed_difference: msd, points };
}
