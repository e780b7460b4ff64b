/**
 * Role x family across traces (a project, system, task or group). An event's
 * role is its `role`, or its agent when it has none (the key GiGPO groups
 * by). For each trace where the role acts, its per-trace value is the sum
 * over the role's events of w_f x credit_f(v) (last column: of C(v)); a cell
 * is the mean of those per-trace values over the traces that give one.
 * A trace gives none for a family it lacks (no R_f, no credit) or under a
 * baseline method (no per-family credit). No trace: null, a gap.
 */
import { createHash } from "node:crypto";
import { SPEC_VERSION } from "../metrics/types";
import type { FamilyLabels, HumanLabels } from "../rewards/labels";
import { FAMILIES, type Family } from "../trace/types";
import type { CreditedTrace } from "./credited";
import { creditSubtitle, FAMILY_LABELS } from "./labels";
import { cellValues, legendTicks, symmetricDomain } from "./scale";
import { TOTAL_COLUMN, type HeatmapAxisItem, type HeatmapCell, type HeatmapCredit, type HeatmapModel } from "./types";

/**
 * One trace's share of the heatmap: per role, in order of first appearance,
 * its events and its summed value per column; which columns the trace gives
 * a value for. It is all the builder needs of a trace, so it is what the
 * server keeps per trace and credit setting (lib/server/compute/role-sums.ts).
 */
export interface TraceRoleSums {
  trace_id: string;
  /** Columns (COLUMNS order) the trace gives a value for: the total, and families present or credited (all but the total under a baseline are dropped). */
  columns: boolean[];
  roles: { role: string; event_ids: string[]; sums: number[] }[];
}

export interface RoleFamilyInput {
  traces: readonly TraceRoleSums[];
  /** The credit settings asked for (traces may be empty). */
  credit: HeatmapCredit;
  /** What the traces are, in words ("group g1", "project default"). */
  scope: string;
  notes?: string[];
}

const COLUMNS = [...FAMILIES, TOTAL_COLUMN] as const;
const TOTAL_INDEX = COLUMNS.length - 1;

/** A credited trace's per-role sums (w_f x credit_f(v) per family, C(v) in the last column), summed in event order. */
export function roleSumsOf(trace: CreditedTrace): TraceRoleSums {
  const baseline = trace.events.length > 0 && trace.events[0]!.weighted === null;
  const columns = COLUMNS.map(
    (c) => c === TOTAL_COLUMN || (!baseline && (trace.families[c] !== null || trace.events.some((e) => (e.weighted?.[c] ?? 0) !== 0))),
  );
  const perRole = new Map<string, { role: string; event_ids: string[]; sums: number[] }>();
  for (const e of trace.events) {
    const role = e.role ?? e.agent;
    let acc = perRole.get(role);
    if (!acc) {
      acc = { role, event_ids: [], sums: COLUMNS.map(() => 0) };
      perRole.set(role, acc);
    }
    acc.event_ids.push(e.id);
    const sums = acc.sums;
    sums[TOTAL_INDEX] = sums[TOTAL_INDEX]! + e.total;
    const weighted = e.weighted;
    if (weighted) FAMILIES.forEach((f, j) => (sums[j] = sums[j]! + weighted[f]));
  }
  return { trace_id: trace.trace_id, columns, roles: [...perRole.values()] };
}

/**
 * The version of role sums: change it whenever roleSumsOf or the credit it
 * sums (lib/credit) computes differently, so that sums kept by the server are
 * computed again.
 */
export const ROLE_SUMS_VERSION = `${SPEC_VERSION}/role-sums.1`;

/**
 * What a trace's role sums depend on besides the trace and the credit
 * setting's names: the preset's weights and the trace's labels (values in
 * ascending order: the same labels read in another order give the same
 * fingerprint), hashed with the version.
 */
export function roleSumsInputs(weights: Readonly<Record<Family, number>>, labels: HumanLabels): string {
  const unit = (l: FamilyLabels) => FAMILIES.filter((f) => l[f] !== undefined).map((f) => [f, [...l[f]!.values].sort((a, b) => a - b), l[f]!.adjudicated ?? null]);
  const events = [...labels.events.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, l]) => [id, unit(l)]);
  const canonical = JSON.stringify([ROLE_SUMS_VERSION, FAMILIES.map((f) => weights[f]), unit(labels.trace), events]);
  return createHash("sha256").update(canonical).digest("base64url");
}

export function buildRoleFamilyHeatmap(input: RoleFamilyInput): HeatmapModel {
  const rowOf = new Map<string, number>();
  const sums: { value: number; n: number; refs: HeatmapCell["refs"] }[][] = [];
  for (const trace of input.traces) {
    for (const { role, event_ids, sums: values } of trace.roles) {
      if (!rowOf.has(role)) {
        rowOf.set(role, rowOf.size);
        sums.push(COLUMNS.map(() => ({ value: 0, n: 0, refs: [] })));
      }
      const row = sums[rowOf.get(role)!]!;
      COLUMNS.forEach((_c, j) => {
        if (!trace.columns[j]) return;
        const cell = row[j]!;
        cell.value += values[j]!;
        cell.n++;
        cell.refs.push({ trace_id: trace.trace_id, event_ids });
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
