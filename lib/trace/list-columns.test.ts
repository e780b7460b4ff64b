import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listColumns } from "./list-columns";
import type { Trace } from "./types";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Trace;

describe("listColumns", () => {
  it("reads the paper's example: no event has tokens, so its costs.tokens 12000; 4 agents; no price, no error", () => {
    expect(listColumns(example)).toEqual({ total_tokens: 12000, total_cost: null, agent_count: 4, error_count: 0 });
  });

  it("sums event tokens when events carry them", () => {
    const events = example.events.map((e, i) => ({ ...e, tokens: i * 10 }));
    expect(listColumns({ ...example, events }).total_tokens).toBe(280);
  });

  it("falls back to costs.tokens when no event has tokens, reads a USD cost, counts error events", () => {
    const trace: Pick<Trace, "events" | "costs"> = {
      events: [
        { id: "a", t: 0, type: "tool_call", agent: "x" },
        { id: "b", t: 1, type: "tool_result", agent: "x", status: "error" },
        { id: "c", t: 2, type: "message", agent: "y", status: "ok" },
      ],
      costs: { tokens: 1200, wall_clock_s: 3, cost_usd: 0.042 },
    };
    expect(listColumns(trace)).toEqual({ total_tokens: 1200, total_cost: 0.042, agent_count: 2, error_count: 1 });
  });
});
