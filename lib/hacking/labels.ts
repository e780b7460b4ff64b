import type { TraceDetector } from "./types";

/** How each detector reads on a page: a name and what it measures, for the trace page, the list filter and the dashboard. */
export const DETECTOR_LABELS: Readonly<Record<TraceDetector, { name: string; explain: string; events: string }>> = {
  pseudo_parallelism: { name: "pseudo-parallelism", explain: "share of spawned agents whose work never reaches the outcome (needs ≥ 2 spawned)", events: "spawns of unused agents" },
  free_riding: { name: "free-riding", explain: "share of positive agent credit (CCP, uniform) held by agents that reach nothing", events: "free riders' events with positive credit" },
  communication_padding: { name: "communication padding", explain: "share of message text repeating an earlier message or reaching nothing (needs ≥ 2 messages)", events: "padded messages" },
  tool_spam: { name: "tool spam", explain: "share of tool calls that never reach the outcome (needs ≥ 2 such calls)", events: "unused tool calls" },
};

/** Anchor of the definitions in docs/metrics.md, as the docs page renders it. */
export const DIAGNOSTICS_DOCS = "/docs/metrics#hacking-diagnostics";
