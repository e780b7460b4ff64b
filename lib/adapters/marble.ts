import { z } from "zod";
import { TOPOLOGY_ALIASES } from "../trace/validate";
import type { Topology } from "../trace/types";
import { AdaptedTraceBuilder, shortHash, slug } from "./emit";
import { PLANNER, addIteration, type Iteration, type RunState } from "./marble-iteration";
import { provenanceOf, stem } from "./provenance";
import { AdapterInputError, type AdaptedTrace } from "./types";
import { zodDetails } from "./zod-details";

/**
 * MultiAgentBench / MARBLE result files: one run per JSONL line. The
 * topology is read from the file name (chain_/star_/tree_/graph_), because
 * `coordination_mode` says "graph" in every research file; files without
 * one in their name fall back to coordination_mode. Either way the name is
 * mapped onto the paper's enum (SPEC.md section 1) and kept in
 * metadata.topology_detail. The judge scores are kept as reported metrics
 * (`metrics`) and verbatim in metadata.labels; they are not a task success,
 * so E1 stays null.
 */

const iterationSchema = z.looseObject({
  iteration: z.number().optional(),
  task_assignments: z.record(z.string(), z.string()).optional(),
  task_results: z.array(z.record(z.string(), z.unknown())).optional(),
  communications: z.union([z.array(z.string()), z.string()]).optional(),
  summary: z.string().optional(),
  continue_simulation: z.boolean().optional(),
});

export const marbleRunSchema = z.looseObject({
  task: z.string(),
  coordination_mode: z.string().optional(),
  iterations: z.array(iterationSchema),
});

type RawIteration = z.infer<typeof iterationSchema>;

/** Fields of an iteration record that the events already carry. */
const MAPPED_KEYS = new Set(["iteration", "task_assignments", "task_results", "communications", "summary", "continue_simulation"]);
const LABEL_KEYS = ["planning_scores", "communication_scores", "token_usage", "agent_kpis", "total_milestones", "task_evaluation", "final_output"];

export function adaptMarbleRun(raw: unknown, path: string, index: number): AdaptedTrace {
  const parsed = marbleRunSchema.safeParse(raw);
  if (!parsed.success) throw new AdapterInputError("marble", path, zodDetails(parsed.error, `$[${index}]`));
  const run = parsed.data;
  const b = new AdaptedTraceBuilder();
  const task = b.add({ t: 0, type: "orchestrator_decision", agent: PLANNER, role: "planner", content: run.task, kind: "task" });
  const state: RunState = { planner: task, spawned: new Set(), t: 0 };
  run.iterations.forEach((it, i) => addIteration(b, normalise(it), i, state));

  const { topology, detail, from } = topologyOf(path, run.coordination_mode);
  const labels: Record<string, unknown> = {};
  for (const key of LABEL_KEYS) if (run[key] !== undefined) labels[key] = run[key];
  const tokens = typeof run.token_usage === "number" ? run.token_usage : undefined;
  const metrics = reportedMetrics(run);
  return b.build(
    {
      trace_id: `marble-${slug(stem(path))}-${index}`,
      task_id: `marble-${shortHash(run.task.trim())}`,
      system: "MARBLE",
      topology,
      rewards: {},
      ...(Object.keys(metrics).length > 0 ? { metrics } : {}),
      metadata: {
        source: provenanceOf(path, "marble", "MultiAgentBench (MARBLE)"),
        record: index,
        ...(detail ? { topology_detail: detail, topology_from: from } : {}),
        ...(run.coordination_mode !== undefined ? { coordination_mode: run.coordination_mode } : {}),
        labels,
      },
    },
    { clock: "step_index", ...(tokens !== undefined ? { tokens } : {}) },
  );
}

function normalise(it: RawIteration): Iteration {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(it)) if (!MAPPED_KEYS.has(key)) extra[key] = value;
  if (typeof it.communications === "string") extra.communications = it.communications;
  return {
    iteration: it.iteration,
    task_assignments: it.task_assignments ?? {},
    task_results: (it.task_results ?? []).flatMap(resultsOf),
    communications: Array.isArray(it.communications) ? it.communications : [],
    summary: it.summary,
    continue_simulation: it.continue_simulation,
    extra,
  };
}

/** Results come as {agent_id, result} or as {<agent>: result}. */
function resultsOf(entry: Record<string, unknown>): { agent: string; result: string }[] {
  if (typeof entry.agent_id === "string") return [{ agent: entry.agent_id, result: text(entry.result) }];
  return Object.entries(entry).map(([agent, result]) => ({ agent, result: text(result) }));
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

const TOPOLOGY_IN_NAME = /^(chain|star|tree|graph)_/i;

export function topologyOf(path: string, mode: string | undefined): { topology: Topology; detail?: string; from?: "file_name" | "coordination_mode" } {
  const named = TOPOLOGY_IN_NAME.exec(stem(path))?.[1]?.toLowerCase();
  if (named) return { topology: TOPOLOGY_ALIASES[named]!, detail: named, from: "file_name" };
  const fromMode = mode ? TOPOLOGY_ALIASES[mode.toLowerCase()] : undefined;
  if (mode && fromMode) return { topology: fromMode, detail: mode.toLowerCase(), from: "coordination_mode" };
  return { topology: "unknown" };
}

/** Judge scores as numbers; -1 in MARBLE's score lists means "not scored" and is left out of the means. */
function reportedMetrics(run: z.infer<typeof marbleRunSchema>): Record<string, number> {
  const metrics: Record<string, number> = {};
  const mean = (key: string, name: string) => {
    const list = run[key];
    if (!Array.isArray(list)) return;
    const scored = list.filter((x): x is number => typeof x === "number" && x >= 0);
    if (scored.length > 0) metrics[name] = scored.reduce((a, x) => a + x, 0) / scored.length;
  };
  mean("planning_scores", "planning_score");
  mean("communication_scores", "communication_score");
  if (typeof run.total_milestones === "number") metrics.total_milestones = run.total_milestones;
  const evaluation = run.task_evaluation;
  if (typeof evaluation === "number") metrics.task_evaluation = evaluation;
  else if (evaluation && typeof evaluation === "object") {
    for (const [key, value] of Object.entries(evaluation)) if (typeof value === "number") metrics[key] = value;
  }
  return metrics;
}
