import "server-only";
import { differenceHeatmap, withSharedDomain, type HeatmapModel } from "@/lib/heatmap";
import type { TraceHeatmapQuery } from "@/lib/heatmap/query";
import { CREDIT_METHODS, type CreditMethod } from "@/lib/credit";
import { ApiError } from "../errors";
import { findTraceRow } from "../queries/traces";
import type { CreditQuery } from "./credit";
import { traceHeatmap } from "./heatmap";

export interface PanelRequest {
  traceId: string;
  groupId: string | null;
  heatmap: TraceHeatmapQuery;
  credit: CreditQuery;
  /** `compare=<method>`: the same trace under a second method, and their difference. */
  compare?: string;
  /** `other=<trace id>`: a second trace of the same group, same settings. */
  other?: string;
}

/**
 * The heatmaps of the trace page: one, or a side-by-side pair on a shared
 * colour domain (plus, for two methods, where they disagree). Problems come
 * back as ApiErrors for the page to show.
 */
export async function heatmapPanels(r: PanelRequest): Promise<HeatmapModel[]> {
  const main = await traceHeatmap(r.traceId, r.heatmap, r.credit);
  if (r.compare) {
    if (!(CREDIT_METHODS as readonly string[]).includes(r.compare)) throw new ApiError(400, "invalid_parameter", `unknown method "${r.compare}" to compare with`, [{ path: "compare", message: "not a credit method" }]);
    const second = await traceHeatmap(r.traceId, r.heatmap, { ...r.credit, method: r.compare as CreditMethod });
    return [...withSharedDomain([main, second]), differenceHeatmap(main, second)];
  }
  if (r.other) {
    const other = await findTraceRow(r.other);
    if (r.groupId === null || other.groupId !== r.groupId) {
      throw new ApiError(400, "invalid_parameter", `trace "${r.other}" is not in this trace's group`, [{ path: "other", message: "must be a trace of the same group_id" }]);
    }
    return withSharedDomain([main, await traceHeatmap(r.other, r.heatmap, r.credit)]);
  }
  return [main];
}
