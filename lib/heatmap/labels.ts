/** Words shared by every heatmap's subtitle, so one setting always reads the same. */
import { cleanFloat } from "../format";
import type { FAMILIES } from "../trace/types";
import type { HeatmapCredit } from "./types";

const METHOD_NAMES: Record<string, string> = {
  ccp: "CCP",
  uniform: "uniform",
  terminal: "terminal",
  mc_return: "MC return",
  grpo: "GRPO",
  gigpo: "GiGPO",
};

export function methodName(method: string): string {
  return METHOD_NAMES[method] ?? method;
}

/** "CCP, preset uniform, normalized, R_total 2.405" (and any weights that differ from the preset's are named by the caller). */
export function creditSubtitle(c: HeatmapCredit): string {
  const parts = [methodName(c.method), `preset ${c.preset}`];
  if (c.normalize) parts.push("normalized");
  if (c.r_total !== null) parts.push(`R_total ${String(Number(cleanFloat(c.r_total).toPrecision(4)))}`);
  return parts.join(" · ");
}

export const FAMILY_LABELS: Record<(typeof FAMILIES)[number], string> = {
  task_success: "task success",
  step_quality: "step quality",
  orchestration: "orchestration",
  parallelism_speedup: "parallelism",
  communication_efficiency: "communication",
  tool_use_correctness: "tool use",
  stop_decision: "stop decision",
  cost: "cost",
};
