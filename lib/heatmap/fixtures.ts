/** Test fixtures: the paper's example trace (read from ../shared by lib/metrics/fixtures) run through real credit. */
import { computeCredit, type CreditOptions } from "../credit";
import { loadExampleTrace } from "../metrics/fixtures";
import type { Trace } from "../trace/types";
import { creditedTrace, type CreditedTrace } from "./credited";

export { loadExampleTrace };

export function credited(trace: Trace, options: CreditOptions = {}): CreditedTrace {
  return creditedTrace(trace, computeCredit(trace, options));
}

/** The example credited under `options` (default: CCP, preset uniform). */
export function exampleCredited(options: CreditOptions = {}): CreditedTrace {
  return credited(loadExampleTrace(), options);
}

/** The matrix of cell values, for compact expectations. */
export function values(model: { cells: { value: number | null }[][] }): (number | null)[][] {
  return model.cells.map((row) => row.map((c) => c.value));
}
