import type { EdgeType } from "../trace/types";
import type { EventFields, EventRef, TraceBuilder } from "../trace/builder";
import type { Rng } from "../util/random";

/** One tool invocation as a scenario scripts it: what went in, what came back. */
export interface ToolStep {
  tool: string;
  input: string;
  output: string;
  /** false marks untrusted content (web pages, user uploads); omitted means trusted. */
  trusted?: boolean;
  /** "error" marks a failed call. */
  status?: "ok" | "error";
  /** Call latency in seconds; drawn from the Rng when omitted. */
  latency?: number;
}

export interface ToolRound {
  call: EventRef;
  result: EventRef;
}

/**
 * A tool_call (timed: t .. t + latency) and its tool_result, which arrives
 * when the call ends; joined by a `return` edge as in the paper's example.
 * Both events belong to the calling agent, so its lane shows the wait.
 */
export function toolRound(
  b: TraceBuilder,
  rng: Rng,
  who: { agent: string; role: string },
  t: number,
  step: ToolStep,
  ...parents: [EventRef, EdgeType][]
): ToolRound {
  const latency = step.latency ?? rng.range(0.8, 3.5);
  const call = b.add(
    { t, t_end: t + latency, type: "tool_call", ...who, tool: step.tool, content: step.input, tokens: rng.int(40, 160) },
    ...parents,
  );
  const result = b.add(
    {
      t: b.endOf(call),
      type: "tool_result",
      ...who,
      tool: step.tool,
      content: step.output,
      tokens: resultTokens(rng, step),
      ...(step.trusted === false ? { trusted: false } : { trusted: true }),
      ...(step.status !== undefined ? { status: step.status } : {}),
    },
    [call, "return"],
  );
  return { call, result };
}

/**
 * Tokens a tool output adds to the caller's context: the stored snippet is
 * ~4 characters a token; fetched pages are longer than their snippet.
 */
function resultTokens(rng: Rng, step: ToolStep): number {
  const snippet = Math.ceil(step.output.length / 4) + rng.int(20, 120);
  return step.tool === "fetch" ? snippet + rng.int(800, 1800) : snippet;
}

/**
 * Runs a chain of tool steps for one agent: each call starts after the agent
 * has read the previous result, and depends on it (`tool_dependency`).
 */
export function toolChain(
  b: TraceBuilder,
  rng: Rng,
  who: { agent: string; role: string },
  start: EventRef,
  startEdge: EdgeType,
  steps: readonly ToolStep[],
): ToolRound[] {
  const rounds: ToolRound[] = [];
  let previous = start;
  let edge = startEdge;
  for (const step of steps) {
    const round = toolRound(b, rng, who, b.endOf(previous) + rng.range(0.6, 2.4), step, [previous, edge]);
    rounds.push(round);
    previous = round.result;
    edge = "tool_dependency";
  }
  return rounds;
}

/**
 * An LLM turn (decision, message, return, aggregate): timed from t to the end
 * of generation. About a third of an event's tokens are output tokens,
 * written at 45-80 tokens/s after a short time to first token.
 */
export function llmTurn(
  b: TraceBuilder,
  rng: Rng,
  fields: Omit<EventFields, "t_end" | "tokens"> & { tokens: number },
  ...parents: [EventRef, EdgeType][]
): EventRef {
  const seconds = (fields.tokens * 0.33) / rng.range(45, 80) + rng.range(0.3, 1.2);
  return b.add({ ...fields, t_end: fields.t + seconds }, ...parents);
}
