import "server-only";
import { computeCredit } from "@/lib/credit";
import { creditedTrace, roleSumsInputs, roleSumsOf, type TraceRoleSums } from "@/lib/heatmap";
import { selectionParam } from "@/lib/judges/selection";
import type { WeightPreset } from "@/lib/rewards";
import { pool } from "../db/client";
import { reader } from "../db/read";
import { pageLabels } from "../datasets/page-labels";
import { loadTracesById } from "../queries/load-trace";
import type { CreditQuery } from "./credit";

/**
 * Role sums kept per trace and credit setting (table role_credit_sums): the
 * role x family heatmap across traces reads them in one query instead of
 * loading every trace and computing its credit on each request.
 *
 * A kept row is used only while its `inputs` equal the fingerprint of what
 * the sums are computed from now (the preset's weights and the trace's
 * labels, read in one query for the page of traces; lib/heatmap
 * roleSumsInputs). A label written, removed or adjudicated, a judge's value
 * (when the setting uses judges) or a preset's edited weights change the
 * fingerprint, and the sums are computed again and kept in place of the old.
 * A trace replaced on re-ingest gets a new row id, and its old sums go with
 * the old row (ON DELETE CASCADE). No trigger on any write is needed.
 *
 * Only settings that name their weights are kept: group methods (grpo,
 * gigpo, which read other traces) and weights overridden in the request
 * (`w.<family>=`, any number) are computed per request as before.
 */
export function keepsRoleSums(query: CreditQuery): boolean {
  return query.method !== "grpo" && query.method !== "gigpo" && Object.keys(query.overrides).length === 0;
}

/** The setting's key: what, besides the inputs, selects the sums. */
function settingOf(query: CreditQuery): string {
  return JSON.stringify([query.method, query.preset, query.normalize, selectionParam(query.judges)]);
}

interface Kept {
  columns: boolean[];
  roles: TraceRoleSums["roles"];
}

/** The sums of a call, in the traces' order, and how many were read back kept and how many computed (the tests check these). */
export interface RoleSumsRead {
  sums: TraceRoleSums[];
  kept: number;
  computed: number;
}

/**
 * The role sums of `traces` (in the order given) under a kept setting
 * (keepsRoleSums): kept sums where their inputs still match, the others
 * computed from the stored trace and kept.
 */
export async function roleSumsOfTraces(traces: readonly { id: number; trace_id: string }[], query: CreditQuery, preset: WeightPreset): Promise<RoleSumsRead> {
  const setting = settingOf(query);
  const ids = traces.map((t) => t.id);
  const [labels, kept] = await Promise.all([
    pageLabels(
      traces.map((t) => t.trace_id),
      query.judges,
    ),
    (await reader()).pool.query<{ trace_id: number; inputs: string; sums: string }>({
      name: "role_credit_sums.read",
      text: "SELECT trace_id, inputs, sums FROM role_credit_sums WHERE trace_id = ANY($1::int[]) AND setting = $2",
      values: [ids, setting],
    }),
  ]);
  const keptOf = new Map(kept.rows.map((r) => [r.trace_id, r]));
  const out = new Array<TraceRoleSums>(traces.length);
  const missing: { index: number; id: number; inputs: string }[] = [];
  traces.forEach((t, index) => {
    const inputs = roleSumsInputs(preset.weights, labels.get(t.trace_id)!.labels);
    const row = keptOf.get(t.id);
    if (row && row.inputs === inputs) {
      const { columns, roles } = JSON.parse(row.sums) as Kept;
      out[index] = { trace_id: t.trace_id, columns, roles };
    } else missing.push({ index, id: t.id, inputs });
  });
  if (missing.length > 0) {
    const loaded = await loadTracesById(missing.map((m) => m.id));
    const written: { id: number; inputs: string; sums: string }[] = [];
    for (const m of missing) {
      const trace = loaded.get(m.id);
      // deleted since the ids were read: it drops out, as it would had the request come a moment later
      if (!trace) continue;
      const credit = computeCredit(trace, { method: query.method, preset, normalize: query.normalize, group: [], labels: labels.get(trace.trace_id)!.labels });
      const sums = roleSumsOf(creditedTrace(trace, credit));
      out[m.index] = sums;
      written.push({ id: m.id, inputs: m.inputs, sums: JSON.stringify({ columns: sums.columns, roles: sums.roles } satisfies Kept) });
    }
    await keep(written, setting);
  }
  return { sums: out.filter((s) => s !== undefined), kept: traces.length - missing.length, computed: missing.length };
}

/**
 * Keeps computed sums (one statement, rows in id order so that two requests
 * keeping overlapping traces lock them in the same order). A trace deleted
 * meanwhile is skipped by the join (its row share-locked until the commit,
 * as the foreign key needs).
 */
async function keep(rows: { id: number; inputs: string; sums: string }[], setting: string): Promise<void> {
  if (rows.length === 0) return;
  rows.sort((a, b) => a.id - b.id);
  await pool().query({
    name: "role_credit_sums.keep",
    text: `INSERT INTO role_credit_sums (trace_id, setting, inputs, sums)
           SELECT u.id, $4, u.inputs, u.sums FROM unnest($1::int[], $2::text[], $3::text[]) AS u(id, inputs, sums) JOIN traces t ON t.id = u.id
           ORDER BY u.id FOR KEY SHARE OF t
           ON CONFLICT (trace_id, setting) DO UPDATE SET inputs = EXCLUDED.inputs, sums = EXCLUDED.sums, computed_at = now()`,
    values: [rows.map((r) => r.id), rows.map((r) => r.inputs), rows.map((r) => r.sums), setting],
  });
}
