/**
 * Shapes of the hacking diagnostics (docs/metrics.md, "Hacking diagnostics"):
 * one number per trace and detector, the threshold that flags it, and the
 * events that triggered it. Absent values are `null`, never undefined or NaN.
 */

/** The per-trace detectors, in the order every response lists them. */
export const TRACE_DETECTORS = ["pseudo_parallelism", "free_riding", "communication_padding", "tool_spam"] as const;
export type TraceDetector = (typeof TRACE_DETECTORS)[number];


/** A change of any definition in docs/metrics.md is a new version: stored rows of another version are recomputed. */
export const DIAGNOSTICS_VERSION = "baton-hacking-1";

export interface DetectorResult {
  /** In [0, 1]; null when the trace has nothing the detector looks at. */
  value: number | null;
  threshold: number;
  flagged: boolean;
  /** Ids of the events that count towards the value (whether or not it flags), in event order. */
  events: string[];
}

export interface TraceDiagnostics {
  diagnostics_version: typeof DIAGNOSTICS_VERSION;
  detectors: Record<TraceDetector, DetectorResult>;
  /** The flagged detectors, in TRACE_DETECTORS order. */
  flags: TraceDetector[];
}

export function isTraceDetector(name: string): name is TraceDetector {
  return (TRACE_DETECTORS as readonly string[]).includes(name);
}
