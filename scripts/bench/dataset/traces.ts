import type { ModelCall } from "@/lib/trace/calls";
import type { Trace, TraceEvent } from "@/lib/trace/types";

/**
 * Traces with model calls for the dataset benchmark: `calls` calls per
 * trace, each producing one event (a decision, a tool call or a message of
 * one of three agents) on a causal chain that ends in an aggregate; prompts
 * of three messages (~350 characters), answers of ~80, token ids on every
 * other call; groups of 8 rollouts with task_success +1 or -1.
 */
const AGENTS = ["orchestrator", "researcher", "writer"] as const;
const TYPES = ["orchestrator_decision", "tool_call", "message"] as const;

export function benchTrace(i: number, calls: number): Trace {
  const events: TraceEvent[] = [];
  const edges: Trace["edges"] = [];
  const modelCalls: ModelCall[] = [];
  for (let k = 0; k < calls; k++) {
    const agent = AGENTS[k % 3]!;
    const type = k === calls - 1 ? "aggregate" : TYPES[k % 3]!;
    events.push({ id: `e${k}`, t: k, type, agent, ...(type === "tool_call" ? { tool: "search" } : {}), tokens: 30 + (k % 7) });
    if (k > 0) edges.push({ src: `e${k - 1}`, dst: `e${k}`, type: "causal" });
    modelCalls.push({
      id: `c${k}`,
      agent,
      t: k,
      model: "bench-model",
      input: [
        { role: "system", content: `You are the ${agent}. Work step by step and cite your sources.` },
        { role: "user", content: `Task ${i % 1000}: find the population of city ${(i * 31 + k) % 977} and compare it with its neighbours.` },
        { role: "tool", content: `{"city":"c${(i + k) % 977}","population":${(i * 7919 + k) % 1000000},"year":2022,"source":"census"}` },
      ],
      output: { role: "assistant", content: `City c${(i + k) % 977} has about ${(i * 7919 + k) % 1000000} inhabitants.` },
      input_tokens: 90,
      output_tokens: 20,
      ...(k % 2 === 0 ? { prompt_token_ids: [101, 7, 8, 9, 10, 11, 12, 13].map((x) => (x * (i + k)) % 50000), response_token_ids: [5, 6, 7].map((x) => (x * k) % 50000) } : {}),
      events: [`e${k}`],
    });
  }
  return {
    trace_id: `bench-${i}`,
    task_id: `task-${Math.floor(i / 8)}`,
    group_id: `group-${Math.floor(i / 8)}`,
    events,
    edges,
    rewards: { task_success: i % 3 === 0 ? -1 : 1 },
    costs: { tokens: calls * 33, wall_clock_s: calls },
    calls: modelCalls,
  };
}
