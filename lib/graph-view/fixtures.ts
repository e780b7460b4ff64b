/**
 * Fixtures for the graph-view tests: the paper's example trace (read from
 * ../shared, never copied into the repo), small hand-made layouts, and the
 * helper that runs a trace through the whole pure pipeline (prepare ->
 * columns -> pages -> engine), as the server and the worker do.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { prepareTrace } from "../credit";
import type { Trace } from "../trace/types";
import { validateTrace } from "../trace/validate";
import { buildGraphModel, eventsPage, type GraphModel } from "./build";
import { GraphEngine } from "./engine";

const EXAMPLE_PATH = fileURLToPath(new URL("../../../shared/trace-schema/example_trace.json", import.meta.url));

/** The paper's example: 8 events, 4 agents, e6 is an untrusted tool result. */
export function exampleTrace(): Trace {
  const result = validateTrace(JSON.parse(readFileSync(EXAMPLE_PATH, "utf8")));
  if (!result.ok) throw new Error("the example trace does not validate");
  return result.trace;
}

export function modelOf(trace: Trace, pageSize?: number): GraphModel {
  return buildGraphModel(prepareTrace(trace), pageSize);
}

/** An engine fed every page of the model, in reverse order (pages may arrive in any order). */
export function engineOf(model: GraphModel): GraphEngine {
  const engine = new GraphEngine(model.meta);
  for (let k = model.meta.pages - 1; k >= 0; k--) engine.addPage(eventsPage(model, k * model.meta.page_size, model.meta.page_size));
  return engine;
}

/** Columns for computeLayout from plain arrays (null: no t_end). */
export function layoutInput(t: number[], tEnd: (number | null)[], lane: number[], laneCount: number, spacing: "time" | "order" = "time") {
  return {
    t: Float64Array.from(t),
    tEnd: Float64Array.from(tEnd, (v) => v ?? NaN),
    lane: Int32Array.from(lane),
    laneCount,
    spacing,
  };
}
