import type { ExtendedDecisiveError } from "../trace/decisive-errors";
import type { Trace, TraceEvent } from "../trace/types";

/**
 * Shared vocabulary of the ecosystem adapters: the formats they read and the
 * shape they write. Adapters write the trace's wire form (what a client
 * would POST): extra event properties sit beside the known ones, and
 * validateTrace moves them into `extra` on the way in.
 */

export const ADAPTER_FORMATS = ["baton", "whowhen", "marble", "taubench", "chatdev", "agentops", "otlp"] as const;
export type AdapterFormat = (typeof ADAPTER_FORMATS)[number];

/** Human-readable names, used in error messages and docs. */
export const FORMAT_NAMES: Readonly<Record<AdapterFormat, string>> = {
  baton: "a Baton trace file (.json / .jsonl in the orchestration-trace schema)",
  whowhen: "a Who&When run (.json with history, mistake_agent, mistake_step)",
  marble: "a MultiAgentBench/MARBLE result file (JSONL with task, coordination_mode, iterations)",
  taubench: "a tau-bench trajectory file (.json array of {task_id, reward, info, traj, trial})",
  chatdev: "a ChatDev run folder or log (timestamped [YYYY-DD-MM HH:MM:SS INFO] lines)",
  agentops: "an AgentOps span-tree export (.json with trace and spans[{span_id, parent_span_id}])",
  otlp: "an OpenTelemetry OTLP/JSON trace export (.json or .jsonl with resourceSpans[].scopeSpans[].spans)",
};

/** One event as written: the known fields plus any extra properties (kept by Baton verbatim). */
export type AdaptedEvent = Omit<TraceEvent, "extra"> & { [extra: string]: unknown };

/**
 * Adapters always write object metadata (a validated Trace may carry any JSON value there).
 * A dataset that names where its runs failed writes that ground truth as `decisive_errors`
 * (SPEC.md section 5), under the dataset's name as annotator.
 */
export type AdaptedTrace = Omit<Trace, "events" | "metadata"> & { events: AdaptedEvent[]; metadata?: Record<string, unknown>; decisive_errors?: ExtendedDecisiveError[] };

/** Where a trace came from, written to `metadata.source` (SPEC.md section 1 convention). */
export interface Provenance {
  dataset: string;
  /** path relative to the data folder when known, else the file name as given */
  file: string;
  repo?: string;
  commit?: string;
  original_path?: string;
  license?: string;
  /** the Baton adapter that read it */
  adapter: AdapterFormat;
}

/**
 * The input is not in the format the adapter expects. Thrown before any
 * trace of the file is yielded when possible, so that the caller stores
 * nothing; the message names the expected format.
 */
export class AdapterInputError extends Error {
  constructor(
    readonly format: AdapterFormat,
    readonly file: string,
    readonly details: string[],
  ) {
    super(`${file} is not ${FORMAT_NAMES[format]}: ${details.slice(0, 5).join("; ")}${details.length > 5 ? ` (and ${details.length - 5} more)` : ""}`);
    this.name = "AdapterInputError";
  }
}
