/**
 * What stands behind one unit's value in credit, family by family: people's
 * labels (and an adjudication), the judges' current values with their
 * reasons, and which of them credit uses (SPEC.md section 5: an
 * adjudication, else people's mean, else, only when judges are asked for,
 * the judges' mean). The label page shows it beside the fields when credit
 * is computed with judges, so a value that came from a judge says so and why.
 */
export interface JudgeAnswer {
  judge: string;
  value: number;
  reason: string | null;
  model: string;
  at: string;
}

export interface FamilyValues {
  family: string;
  people: { count: number; mean: number | null; adjudicated: number | null };
  judges: JudgeAnswer[];
  /** what credit with judges uses for this unit and family */
  in_credit: "adjudication" | "people" | "judges" | "none";
  /** the value credit with judges uses, null when none */
  value: number | null;
}

export interface PersonValue {
  family: string;
  value: number;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? null : [...xs].sort((a, b) => a - b).reduce((s, x) => s + x, 0) / xs.length);

/** Families in `order` first (the unit's own), then any other that has a value, alphabetically. */
export function unitValues(order: readonly string[], people: readonly PersonValue[], adjudications: readonly PersonValue[], judges: readonly (JudgeAnswer & { family: string })[]): FamilyValues[] {
  const families = [...order, ...[...new Set([...people, ...adjudications, ...judges].map((r) => r.family))].filter((f) => !order.includes(f)).sort()];
  return families.map((family) => {
    const mine = people.filter((p) => p.family === family).map((p) => p.value);
    const adjudicated = adjudications.find((a) => a.family === family)?.value ?? null;
    const answers = judges.filter((j) => j.family === family).map(({ family: _f, ...a }) => a).sort((a, b) => (a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : 0));
    const peopleMean = mean(mine);
    const judgeMean = mean(answers.map((a) => a.value));
    const in_credit = adjudicated !== null ? "adjudication" : peopleMean !== null ? "people" : judgeMean !== null ? "judges" : "none";
    const value = adjudicated ?? peopleMean ?? judgeMean;
    return { family, people: { count: mine.length, mean: peopleMean, adjudicated }, judges: answers, in_credit, value };
  });
}
