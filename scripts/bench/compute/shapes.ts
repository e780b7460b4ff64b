/**
 * Trace shapes for the compute benchmark, each with exactly `n` events
 * (n >= 4), valid and acyclic, every edge forward in time:
 *
 * - fanout: lib/demo's syntheticTrace (waves of up to 12 sub-agents fanning
 *   out from a spawn decision and back into an aggregate, tool chains, peer
 *   messages; about 1.5 edges per event).
 * - chain: one worker's single causal chain of tool_call -> tool_result ->
 *   message steps between a spawn and the final aggregate (depth n).
 * - mesh: a group chat of 6 agents in rounds; every message answers all
 *   messages of the previous round (about 6 edges per event), and every 10
 *   rounds an aggregate collects the last round (wide fan-in).
 */
import { syntheticTrace } from "@/lib/demo";
import { costsOf } from "@/lib/trace/builder";
import type { EdgeType, Trace, TraceEdge, TraceEvent } from "@/lib/trace/types";

export const SHAPES = ["fanout", "chain", "mesh"] as const;
export type Shape = (typeof SHAPES)[number];

export function makeTrace(shape: Shape, n: number, seed = 1): Trace {
  switch (shape) {
    case "fanout":
      return syntheticTrace({ events: n, seed, traceId: `fanout-${seed}-${n}` });
    case "chain":
      return chainTrace(n, seed);
    case "mesh":
      return meshTrace(n, seed);
  }
}

/** Appends events with ids e1..eN; the clock moves one unit per event unless told to stay (concurrent events). */
class Writer {
  readonly events: TraceEvent[] = [];
  readonly edges: TraceEdge[] = [];
  private clock = 0;

  emit(fields: Omit<TraceEvent, "id" | "t" | "t_end">, advance = true): number {
    const i = this.events.length;
    this.events.push({ id: `e${i + 1}`, t: this.clock, t_end: this.clock + 0.5 + (i % 5) * 0.1, tokens: 50 + (i % 7) * 40, ...fields });
    if (advance) this.clock++;
    return i;
  }

  link(src: number, dst: number, type: EdgeType): void {
    this.edges.push({ src: `e${src + 1}`, dst: `e${dst + 1}`, type });
  }

  trace(shape: string, seed: number, success: boolean): Trace {
    return {
      trace_id: `${shape}-${seed}-${this.events.length}`,
      task_id: `${shape}-task-${seed}`,
      system: `bench-${shape}`,
      topology: "mixed",
      events: this.events,
      edges: this.edges,
      rewards: { team: success ? 1 : 0 },
      costs: costsOf(this.events),
    };
  }
}

const ORCH = { agent: "orchestrator", role: "orchestrator" } as const;
const CHAIN_STEPS = ["tool_call", "tool_result", "message"] as const;

function chainTrace(n: number, seed: number): Trace {
  const w = new Writer();
  const worker = { agent: "worker_1", role: "coder" };
  let last = w.emit({ type: "orchestrator_decision", ...ORCH, decision: "spawn", content: "plan: one worker" });
  last = chainLink(w, last, w.emit({ type: "spawn", ...ORCH, to: "worker_1" }), "spawn");
  for (let k = 0; w.events.length < n - 3; k++) {
    const type = CHAIN_STEPS[k % 3]!;
    const fields = type === "message" ? { to: "orchestrator", content: `progress note ${k % 50}` } : { tool: k % 30 === 0 ? "fetch" : "shell" };
    const status = type === "tool_result" && k % 97 === 1 ? { status: "error" } : {};
    const trusted = type === "tool_result" && fields.tool === "fetch" ? { trusted: false } : {};
    last = chainLink(w, last, w.emit({ type, ...worker, ...fields, ...status, ...trusted }), type === "tool_result" ? "return" : "causal");
  }
  last = chainLink(w, last, w.emit({ type: "return", ...worker, to: "orchestrator" }), "return");
  last = chainLink(w, last, w.emit({ type: "aggregate", ...ORCH }), "aggregate");
  chainLink(w, last, w.emit({ type: "orchestrator_decision", ...ORCH, decision: "stop", reason: "complete" }), "causal");
  return w.trace("chain", seed, seed % 2 === 1);
}

function chainLink(w: Writer, src: number, dst: number, type: EdgeType): number {
  w.link(src, dst, type);
  return dst;
}

const MESH_AGENTS = 6;
const ROUNDS_PER_AGGREGATE = 10;

function meshTrace(n: number, seed: number): Trace {
  const w = new Writer();
  const agents = Array.from({ length: MESH_AGENTS }, (_, a) => `debater_${a + 1}`);
  let previous = [w.emit({ type: "orchestrator_decision", ...ORCH, decision: "communicate", content: "open the debate" })];
  for (let round = 0; w.events.length + MESH_AGENTS + 2 <= n; round++) {
    if (round > 0 && round % ROUNDS_PER_AGGREGATE === 0) previous = [aggregateAndContinue(w, previous, round)];
    const current: number[] = [];
    for (let a = 0; a < MESH_AGENTS && w.events.length + 2 < n; a++) {
      const content = `round ${round % 4}: ${agents[a]!} argues point ${(round * a) % 5}`;
      const m = w.emit({ type: "message", agent: agents[a]!, role: "debater", to: agents[(a + 1) % MESH_AGENTS]!, content }, a === MESH_AGENTS - 1);
      for (const p of previous) w.link(p, m, "message");
      current.push(m);
    }
    previous = current;
  }
  while (w.events.length < n - 2) previous = [linkAll(w, previous, w.emit({ type: "orchestrator_decision", ...ORCH, decision: "continue" }), "causal")];
  const aggregate = linkAll(w, previous, w.emit({ type: "aggregate", ...ORCH }), "aggregate");
  linkAll(w, [aggregate], w.emit({ type: "orchestrator_decision", ...ORCH, decision: "stop", reason: "quality_met" }), "causal");
  return w.trace("mesh", seed, seed % 3 !== 0);
}

/** An aggregate of the last round, then a continue decision that opens the next rounds. */
function aggregateAndContinue(w: Writer, previous: readonly number[], round: number): number {
  const aggregate = linkAll(w, previous, w.emit({ type: "aggregate", ...ORCH, content: `summary after round ${round}` }), "aggregate");
  return linkAll(w, [aggregate], w.emit({ type: "orchestrator_decision", ...ORCH, decision: "continue" }), "causal");
}

function linkAll(w: Writer, sources: readonly number[], dst: number, type: EdgeType): number {
  for (const s of sources) w.link(s, dst, type);
  return dst;
}
