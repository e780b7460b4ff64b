/**
 * Role x family across traces (a project, system, task or group). An event's
 * role is its `role`, or its agent when it has none (the key GiGPO groups
 * by). For each trace where the role acts, its per-trace value is the sum
 * over the role's events of w_f x credit_f(v) (last column: of C(v)); a cell
 * is the mean of those per-trace values over the traces that give one.
 * A trace gives none for a family it lacks (no R_f, no credit) or under a
 * baseline method (no per-family credit). No trace: null, a gap.
 */
import { SPEC_VERSION } from "../metrics/types";
import { FAMILIES } from "../trace/types";
import type { CreditedTrace } from "./credited";
import { creditSubtitle, FAMILY_LABELS } from "./labels";
import { cellValues, legendTicks, symmetricDomain } from "./scale";
import { TOTAL_COLUMN, type HeatmapAxisItem, type HeatmapCell, type HeatmapCredit, type HeatmapModel } from "./types";

export interface RoleFamilyInput {
  traces: readonly CreditedTrace[];
  /** The credit settings asked for (traces may be empty). */
  credit: HeatmapCredit;
  /** What the traces are, in words ("group g1", "project default"). */
  scope: string;
  notes?: string[];
}

const COLUMNS = [...FAMILIES, TOTAL_COLUMN] as const;
type Column = (typeof COLUMNS)[number];

export function buildRoleFamilyHeatmap(input: RoleFamilyInput): HeatmapModel {
  const rowOf = new Map<string, number>();
  const sums: { value: number; n: number; refs: HeatmapCell["refs"] }[][] = [];
  for (const trace of input.traces) {
    const active = new Set<Column>([TOTAL_COLUMN, ...FAMILIES.filter((f) => trace.families[f] !== null || trace.events.some((e) => (e.weighted?.[f] ?? 0) !== 0))]);
    const perRole = new Map<string, { ids: string[]; sums: Record<Column, number> }>();
    for (const e of trace.events) {
      const role = e.role ?? e.agent;
      let acc = perRole.get(role);
      if (!acc) {
        acc = { ids: [], sums: Object.fromEntries(COLUMNS.map((c) => [c, 0])) as Record<Column, number> };
        perRole.set(role, acc);
      }
      acc.ids.push(e.id);
      acc.sums[TOTAL_COLUMN] += e.total;
      if (e.weighted) for (const f of FAMILIES) acc.sums[f] += e.weighted[f];
    }
    const baseline = trace.events.length > 0 && trace.events[0]!.weighted === null;
    for (const [role, acc] of perRole) {
      if (!rowOf.has(role)) {
        rowOf.set(role, rowOf.size);
        sums.push(COLUMNS.map(() => ({ value: 0, n: 0, refs: [] })));
      }
      const row = sums[rowOf.get(role)!]!;
      COLUMNS.forEach((c, j) => {
        if (!active.has(c) || (baseline && c !== TOTAL_COLUMN)) return;
        const cell = row[j]!;
        cell.value += acc.sums[c];
        cell.n++;
        cell.refs.push({ trace_id: trace.trace_id, event_ids: acc.ids });
      });
    }
  }

  const cells: HeatmapCell[][] = sums.map((row) => row.map((s) => ({ value: s.n > 0 ? s.value / s.n : null, n: s.n, refs: s.refs })));
  const rows: HeatmapAxisItem[] = [...rowOf.keys()].map((role) => ({ key: role, label: role, detail: `role ${role} (an event's role, else its agent)` }));
  const columns: HeatmapAxisItem[] = COLUMNS.map((c) =>
    c === TOTAL_COLUMN
      ? { key: c, label: "C(v)", detail: "mean per trace of the role's summed C(v)" }
      : { key: c, label: FAMILY_LABELS[c], detail: `mean per trace of the role's summed w_f x credit_f(v), family ${c}` },
  );
  const domain = symmetricDomain(cellValues(cells));
  const count = input.traces.length;
  return {
    version: SPEC_VERSION,
    kind: "role-family",
    title: `Credit by role and family: ${input.scope}`,
    subtitle: `${count} trace${count === 1 ? "" : "s"} · ${creditSubtitle(input.credit)}`,
    row_label: "role (or agent)",
    column_label: "reward family",
    value_label: "mean over traces of the role's summed w_f x credit_f(v)",
    count_label: "traces",
    rows,
    columns,
    cells,
    domain,
    ticks: legendTicks(domain),
    credit: input.credit,
    trace_id: null,
    page: { offset: 0, limit: rows.length, total: rows.length },
    notes: input.notes ?? [],
  };
}
