import { describe, expect, it } from "vitest";
import { DECISIONS, type Trace, type TraceEvent } from "../trace/types";
import { validateTrace } from "../trace/validate";
import { computeCredit } from "../credit";
import { BUILTIN_PRESETS } from "../rewards/presets";
import { DEMO_SOURCE, demoTraces, syntheticTrace, syntheticTraces } from "./index";

const demos = demoTraces();
const byId = (id: string): Trace => {
  const trace = demos.find((t) => t.trace_id === id);
  if (!trace) throw new Error(`no demo trace ${id}`);
  return trace;
};
const research = byId("demo-research-na-ion-vs-lfp");
const coding = byId("demo-coding-parse-duration-failed");
const debate = byId("demo-debate-webhooks-late-stop");
const group = demos.filter((t) => t.group_id !== undefined);

/** Event ids reachable from `from` along non-temporal (causal) edges, `from` included. */
function causalDescendants(trace: Trace, from: string): Set<string> {
  const next = new Map<string, string[]>();
  for (const e of trace.edges) if (e.type !== "temporal") next.set(e.src, [...(next.get(e.src) ?? []), e.dst]);
  const seen = new Set([from]);
  const queue = [from];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const dst of next.get(id) ?? []) {
      if (seen.has(dst)) continue;
      seen.add(dst);
      queue.push(dst);
    }
  }
  return seen;
}

/** Events in event order: by t, ties by array position. */
const inOrder = (trace: Trace): TraceEvent[] => trace.events.map((e, i) => [e, i] as const).sort((a, b) => a[0].t - b[0].t || a[1] - b[1]).map(([e]) => e);
const lastOf = (events: TraceEvent[], test: (e: TraceEvent) => boolean) => events.filter(test).at(-1);
const stopEventOf = (trace: Trace) => lastOf(inOrder(trace), (e) => e.type === "orchestrator_decision" && e.decision === "stop");
const terminalOf = (trace: Trace) => lastOf(inOrder(trace), (e) => e.type === "aggregate") ?? inOrder(trace).at(-1);
const spawnedAgents = (trace: Trace) => new Set(trace.events.filter((e) => e.type === "spawn" && e.to).map((e) => e.to!));
const messageKey = (e: TraceEvent) => (e.content ?? e.id).replace(/\s+/g, " ").toLowerCase();

describe("demoTraces", () => {
  it("every demo trace passes validateTrace with no problems and no warnings", () => {
    for (const trace of demos) {
      const result = validateTrace(JSON.parse(JSON.stringify(trace)));
      expect(result.ok ? result.warnings : result.problems, trace.trace_id).toEqual([]);
    }
  });

  it("is deterministic", () => {
    expect(demoTraces()).toEqual(demos);
  });

  it("has unique trace ids and the conventions of a demo trace", () => {
    expect(new Set(demos.map((t) => t.trace_id)).size).toBe(demos.length);
    for (const trace of demos) {
      expect(trace.project).toBe("default");
      expect(trace.metadata?.source).toBe(DEMO_SOURCE);
      expect(trace.system).toBeTruthy();
      for (const e of trace.events) {
        expect(e.tokens, `${trace.trace_id} ${e.id}`).toBeGreaterThanOrEqual(0);
        if (["tool_call", "message", "return", "aggregate", "orchestrator_decision"].includes(e.type)) expect(e.t_end).toBeGreaterThan(e.t);
      }
      expect(trace.costs.tokens).toBe(trace.events.reduce((sum, e) => sum + (e.tokens ?? 0), 0));
    }
  });

  it("covers every decision, a human intervention, a safety event and several topologies", () => {
    const events = demos.flatMap((t) => t.events);
    expect(new Set(events.map((e) => e.decision).filter(Boolean))).toEqual(new Set(DECISIONS));
    expect(events.some((e) => e.type === "human_intervention")).toBe(true);
    expect(events.some((e) => e.type === "safety_event")).toBe(true);
    expect(new Set(demos.map((t) => t.topology)).size).toBeGreaterThanOrEqual(4);
  });
});

describe("scenario (a): parallel research", () => {
  it("spawns 3 searchers from the lead whose tool calls overlap in time", () => {
    expect(spawnedAgents(research).size).toBe(3);
    const calls = research.events.filter((e) => e.type === "tool_call");
    const firstCallOf = (agent: string) => calls.find((e) => e.agent === agent)!;
    const [a, b, c] = [...spawnedAgents(research)].map(firstCallOf);
    expect(Math.max(a!.t, b!.t, c!.t)).toBeLessThan(Math.min(a!.t_end!, b!.t_end!, c!.t_end!));
    expect(calls.every((call) => research.edges.some((e) => e.src === call.id && e.type === "return"))).toBe(true);
  });

  it("lets untrusted web content reach the final aggregate along causal edges", () => {
    const untrusted = research.events.filter((e) => e.type === "tool_result" && e.trusted === false);
    expect(untrusted).toHaveLength(1);
    const final = terminalOf(research)!;
    expect(final.type).toBe("aggregate");
    expect(causalDescendants(research, untrusted[0]!.id).has(final.id)).toBe(true);
  });

  it("uses the edge kinds of a centralized run and stops on quality_met with team reward 1", () => {
    const kinds = new Set(research.edges.map((e) => e.type));
    for (const kind of ["spawn", "tool_dependency", "return", "aggregate", "message", "causal", "temporal"] as const) expect(kinds).toContain(kind);
    expect(research.events.filter((e) => e.type === "return")).toHaveLength(3);
    expect(stopEventOf(research)?.reason).toBe("quality_met");
    expect(research.rewards).toEqual({ team: 1 });
  });
});

describe("scenario (b): failed coding run", () => {
  it("has a run_tests tool_result with status error", () => {
    const failed = coding.events.filter((e) => e.type === "tool_result" && e.status === "error");
    expect(failed.map((e) => e.tool)).toContain("run_tests");
  });

  it("stops on budget_exhausted before a spawned agent has returned", () => {
    const order = inOrder(coding);
    const stop = stopEventOf(coding)!;
    expect(stop.reason).toBe("budget_exhausted");
    const beforeStop = order.slice(0, order.indexOf(stop));
    const unreturned = [...spawnedAgents(coding)].filter((agent) => !beforeStop.some((e) => e.type === "return" && e.agent === agent));
    expect(unreturned.length).toBeGreaterThan(0);
    // the seed's convention: success +1, failure -1
    expect(coding.rewards.team ?? coding.rewards.task_success).toBe(-1);
  });

  it("gives every failed demo run negative credit under terminal with every built-in preset", () => {
    const failedRuns = demos.filter((t) => (t.rewards.team ?? 0) < 0);
    expect(failedRuns.map((t) => t.trace_id).sort()).toEqual([coding.trace_id, ...group.filter((t) => t.rewards.team === -1).map((t) => t.trace_id)].sort());
    for (const trace of failedRuns) {
      for (const preset of [BUILTIN_PRESETS.uniform, BUILTIN_PRESETS.code_generation, BUILTIN_PRESETS.multi_source_research, BUILTIN_PRESETS.customer_support]) {
        const terminal = computeCredit(trace, { method: "terminal", preset });
        // task_success R = -1 (team -1) outweighs the other families of these presets
        expect(terminal.families.task_success).toBe(-1);
        const total = terminal.events.reduce((sum, e) => sum + e.total, 0);
        expect(total, `${trace.trace_id} ${preset.name}`).toBeLessThan(0);
      }
    }
    // hand-computed, code_generation on the coding run: 1 x (-1) + 0.3 x (1/3) - 0.1 x cost (7,278 tokens / 100,000) = -0.907278
    expect(computeCredit(coding, { method: "terminal", preset: BUILTIN_PRESETS.code_generation }).r_total).toBeCloseTo(-1 + 0.1 - 0.007278, 9);
    // the default preset too: the re-sent hand-off makes 4 messages with 3 keys, redundancy 0.25, communication_efficiency 1 - 2 x 0.25
    const uniform = computeCredit(coding, { method: "terminal", preset: BUILTIN_PRESETS.uniform });
    expect(uniform.families.communication_efficiency).toBe(0.5);
    expect(uniform.r_total).toBeLessThan(0);
    const syntheticFailed = [...syntheticTraces(40, 30, 7)].filter((t) => t.rewards.team !== 1);
    expect(syntheticFailed.length).toBeGreaterThan(0);
    for (const t of syntheticFailed) expect(t.rewards.team).toBe(-1);
  });
});

describe("scenario (c): redundant messages and a late stop", () => {
  it("has near-duplicate messages (same text modulo whitespace and case)", () => {
    const messages = debate.events.filter((e) => e.type === "message");
    const exact = new Set(messages.map((e) => e.content));
    const normalised = new Set(messages.map(messageKey));
    expect(exact.size).toBe(messages.length);
    expect(normalised.size).toBeLessThan(messages.length);
  });

  it("has dead messages that do not reach the terminal event", () => {
    const terminal = terminalOf(debate)!;
    const dead = debate.events.filter((e) => e.type === "message" && !causalDescendants(debate, e.id).has(terminal.id));
    expect(dead.length).toBeGreaterThanOrEqual(2);
  });

  it("keeps working after the final aggregate and the stop decision", () => {
    const order = inOrder(debate);
    const stop = stopEventOf(debate)!;
    const tail = order.slice(order.indexOf(stop) + 1);
    expect(tail.length).toBeGreaterThan(0);
    expect(tail.some((e) => e.type === "message" || e.type === "tool_call")).toBe(true);
    expect(order.indexOf(terminalOf(debate)!)).toBeLessThan(order.indexOf(stop));
    expect(debate.rewards).toEqual({ team: 1 });
  });
});

describe("scenario (d): a group of rollouts", () => {
  it("has 4 traces sharing group_id and task_id, with distinct trace ids and a policy version", () => {
    expect(group).toHaveLength(4);
    expect(new Set(group.map((t) => t.group_id)).size).toBe(1);
    expect(new Set(group.map((t) => t.task_id)).size).toBe(1);
    expect(new Set(group.map((t) => t.trace_id)).size).toBe(4);
    for (const t of group) expect(t.metadata?.policy_version).toBe("ckpt-1840");
  });

  it("has varied outcomes and team sizes", () => {
    expect(group.map((t) => t.rewards.team).sort()).toEqual([-1, -1, 1, 1]);
    expect(new Set(group.map((t) => spawnedAgents(t).size)).size).toBeGreaterThanOrEqual(3);
  });

  it("has one rollout with a continue decision before the same agent's stop decision", () => {
    const withContinue = group.filter((t) => {
      const order = inOrder(t);
      const stop = stopEventOf(t);
      return order.some((e, i) => e.decision === "continue" && stop && e.agent === stop.agent && i < order.indexOf(stop));
    });
    expect(withContinue).toHaveLength(1);
  });
});

describe("syntheticTrace", () => {
  const big = syntheticTrace({ events: 10_000, seed: 42 });

  it("makes a valid trace of exactly the requested size with 1.3-1.7 edges per event", () => {
    const result = validateTrace(big);
    expect(result.ok ? result.warnings : result.problems).toEqual([]);
    expect(big.events).toHaveLength(10_000);
    const perEvent = big.edges.length / big.events.length;
    expect(perEvent).toBeGreaterThanOrEqual(1.3);
    expect(perEvent).toBeLessThanOrEqual(1.7);
  });

  it("has a fan-out/fan-in shape and edges that only go forward", () => {
    const position = new Map(big.events.map((e, i) => [e.id, i]));
    expect(big.edges.every((e) => position.get(e.src)! < position.get(e.dst)!)).toBe(true);
    expect(big.events.every((e, i) => i === 0 || e.t >= big.events[i - 1]!.t)).toBe(true);
    expect(spawnedAgents(big).size).toBeGreaterThan(50);
    expect(big.events.filter((e) => e.type === "aggregate").length).toBeGreaterThan(5);
    expect(stopEventOf(big)).toBe(big.events.at(-1));
  });

  it("is deterministic per seed, and content can be left out without changing the structure", () => {
    expect(syntheticTrace({ events: 2_000, seed: 9 })).toEqual(syntheticTrace({ events: 2_000, seed: 9 }));
    expect(syntheticTrace({ events: 2_000, seed: 10 })).not.toEqual(syntheticTrace({ events: 2_000, seed: 9 }));
    const bare = syntheticTrace({ events: 2_000, seed: 9, content: false });
    const full = syntheticTrace({ events: 2_000, seed: 9 });
    expect(bare.edges).toEqual(full.edges);
    expect(bare.events.map(({ content: _content, ...rest }) => rest)).toEqual(full.events.map(({ content: _content, ...rest }) => rest));
  });

  it("gives exactly the requested count for small sizes, all valid", () => {
    for (let n = 1; n <= 40; n++) {
      const trace = syntheticTrace({ events: n, seed: n });
      expect(trace.events).toHaveLength(n);
      const result = validateTrace(trace);
      expect(result.ok, `events=${n}`).toBe(true);
    }
    expect(() => syntheticTrace({ events: 0, seed: 1 })).toThrow(RangeError);
  });
});

describe("syntheticTraces", () => {
  it("streams traces lazily with unique ids, in groups of 4 rollouts of one task", () => {
    const stream = syntheticTraces(Number.MAX_SAFE_INTEGER, 200, 3);
    const first = Array.from({ length: 8 }, () => stream.next().value as Trace);
    expect(new Set(first.map((t) => t.trace_id)).size).toBe(8);
    expect(first.every((t) => t.events.length === 200)).toBe(true);
    expect(new Set(first.slice(0, 4).map((t) => t.group_id)).size).toBe(1);
    expect(new Set(first.slice(0, 4).map((t) => t.task_id)).size).toBe(1);
    expect(first[4]!.group_id).not.toBe(first[0]!.group_id);
    expect([...syntheticTraces(3, 50, 3)].map((t) => t.trace_id)).toEqual(first.slice(0, 3).map((t) => t.trace_id));
  });
});
