import type { Trace } from "./types";

/**
 * The trace list's own columns, stored on the trace row so that the list can
 * sort and filter on them with an index (see prisma/schema.prisma):
 * - `total_tokens`: the sum of event tokens, or the run's own `costs.tokens`
 *   when no event carries tokens (sources that only report a total);
 * - `total_cost`: the run's cost in USD when it reports one (`costs.cost_usd`,
 *   `costs.usd` or `costs.cost`), else null: Baton never invents a price;
 * - `agent_count`: distinct `agent` values over the events;
 * - `error_count`: events with `status: "error"` (SPEC.md section 1).
 */
export interface ListColumns {
  total_tokens: number;
  total_cost: number | null;
  agent_count: number;
  error_count: number;
}

export function listColumns(trace: Pick<Trace, "events" | "costs">): ListColumns {
  let tokens = 0;
  let errors = 0;
  const agents = new Set<string>();
  for (const e of trace.events) {
    tokens += e.tokens ?? 0;
    if (e.status === "error") errors++;
    agents.add(e.agent);
  }
  const costs = trace.costs as Record<string, unknown>;
  const cost = [costs.cost_usd, costs.usd, costs.cost].find((v): v is number => typeof v === "number" && Number.isFinite(v));
  const reportedTokens = typeof costs.tokens === "number" && Number.isFinite(costs.tokens) ? costs.tokens : 0;
  return { total_tokens: tokens > 0 ? tokens : reportedTokens, total_cost: cost ?? null, agent_count: agents.size, error_count: errors };
}
