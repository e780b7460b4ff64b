import "server-only";
import { DIAGNOSTICS_VERSION, TRACE_DETECTORS } from "@/lib/hacking";
import type { JudgeSelection } from "@/lib/judges/selection";
import { humanLabelsFrom, type HumanLabels } from "@/lib/rewards";
import { pool } from "../db/client";
import { storedDiagnostics } from "../hacking/store";
import { humanLabels } from "../queries/annotations";
import { pushTo } from "@/lib/util/group";

/**
 * The labels and hacking flags of a page of traces with one query each
 * (what humanLabels and storedDiagnostics give trace by trace, which they
 * still do where a page cannot: judge values, diagnostics of another version).
 */
export async function pageLabels(traceKeys: readonly string[], judges: JudgeSelection): Promise<Map<string, { labels: HumanLabels; asOf: Date | null }>> {
  if (judges.kind !== "none") return new Map(await Promise.all(traceKeys.map(async (k) => [k, await humanLabels(k, judges)] as const)));
  const { rows } = await pool().query<{ trace_key: string; adjudicated: boolean; event_id: string; family: string; value: number; updated_at: Date }>({
    name: "snapshot.labels",
    text: `SELECT trace_key, false AS adjudicated, event_id, family, value, updated_at FROM annotations WHERE trace_key = ANY($1::text[])
     UNION ALL SELECT trace_key, true, event_id, family, value, updated_at FROM adjudications WHERE trace_key = ANY($1::text[])`,
    values: [traceKeys],
  });
  const toRow = (r: { event_id: string; family: string; value: number }) => ({ event_id: r.event_id || null, family: r.family, value: r.value });
  const byKey = new Map<string, typeof rows>();
  for (const r of rows) pushTo(byKey, r.trace_key, r);
  return new Map(
    traceKeys.map((key) => {
      const own = byKey.get(key) ?? [];
      const times = own.map((r) => r.updated_at.getTime());
      const labels = humanLabelsFrom(own.filter((r) => !r.adjudicated).map(toRow), own.filter((r) => r.adjudicated).map(toRow));
      return [key, { labels, asOf: times.length > 0 ? new Date(Math.max(...times)) : null }];
    }),
  );
}

export async function pageFlags(traceDbIds: readonly number[]): Promise<Map<number, string[]>> {
  const { rows } = await pool().query<{ trace_id: number; flags: string[]; version: string }>({ name: "snapshot.flags", text: "SELECT trace_id, flags, version FROM trace_diagnostics WHERE trace_id = ANY($1::int[])", values: [traceDbIds] });
  const current = new Map(rows.filter((r) => r.version === DIAGNOSTICS_VERSION).map((r) => [r.trace_id, TRACE_DETECTORS.filter((d) => r.flags.includes(d)) as string[]]));
  for (const id of traceDbIds) if (!current.has(id)) current.set(id, (await storedDiagnostics(id)).flags);
  return current;
}
