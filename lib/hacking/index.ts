/**
 * Hacking diagnostics (docs/metrics.md, "Hacking diagnostics"): one
 * detector per reward-hacking pattern of multi-agent systems.
 *
 *   trace + human labels -> credit/prepareTrace (analysis, rewards)
 *     -> ccp credit (uniform preset) -> four per-trace detectors -> flags
 *   judge vs people per checkpoint -> collusion drift (collusion.ts)
 */
import { creditColumns, prepareTrace } from "../credit/index";
import { NO_LABELS, type HumanLabels } from "../rewards/labels";
import type { Trace } from "../trace/types";
import { communicationPadding, freeRiding, pseudoParallelism, toolSpam } from "./detectors";
import { DIAGNOSTICS_VERSION, TRACE_DETECTORS, type TraceDiagnostics } from "./types";

export * from "./types";
export { THRESHOLDS, COLLUSION_MIN_UNITS } from "./thresholds";
export { DETECTOR_LABELS, DIAGNOSTICS_DOCS } from "./labels";
export { collusionByCheckpoint, type CollusionInput, type CollusionRow } from "./collusion";

/** The four per-trace detectors of one trace, with the human labels its stored metrics use. O(V + E). */
export function computeDiagnostics(trace: Trace, labels: HumanLabels = NO_LABELS): TraceDiagnostics {
  const p = prepareTrace(trace, labels);
  const a = p.analysis;
  const detectors = {
    pseudo_parallelism: pseudoParallelism(a),
    free_riding: freeRiding(a, creditColumns(p)),
    communication_padding: communicationPadding(a),
    tool_spam: toolSpam(a),
  };
  return { diagnostics_version: DIAGNOSTICS_VERSION, detectors, flags: TRACE_DETECTORS.filter((d) => detectors[d].flagged) };
}
