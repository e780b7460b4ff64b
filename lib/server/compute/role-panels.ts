import "server-only";
import { CREDIT_METHODS, type CreditMethod } from "@/lib/credit";
import { differenceHeatmap, withSharedDomain, type HeatmapModel } from "@/lib/heatmap";
import type { RoleHeatmapQuery } from "@/lib/heatmap/query";
import { ApiError } from "../errors";
import type { TraceFilter } from "../queries/trace-filter";
import type { CreditQuery } from "./credit";
import { roleFamilyHeatmap } from "./heatmap";

/** Role x family over a filter, alone or beside a second method (shared domain) with their difference. */
export async function rolePanels(filter: TraceFilter, heatmap: RoleHeatmapQuery, credit: CreditQuery, compare?: string): Promise<HeatmapModel[]> {
  const main = await roleFamilyHeatmap(filter, heatmap, credit);
  if (!compare) return [main];
  if (!(CREDIT_METHODS as readonly string[]).includes(compare)) throw new ApiError(400, "invalid_parameter", `unknown method "${compare}" to compare with`, [{ path: "compare", message: "not a credit method" }]);
  const second = await roleFamilyHeatmap(filter, heatmap, { ...credit, method: compare as CreditMethod });
  return [...withSharedDomain([main, second]), differenceHeatmap(main, second)];
}
