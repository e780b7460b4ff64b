import { beforeAll, describe, expect, it } from "vitest";
import { collect, countBy, data, eventTypes, expectValid } from "./fixtures";
import { parseSession, PLANNER } from "./marble-iteration";
import { topologyOf } from "./marble";
import type { AdaptedTrace } from "./types";

const FILES = [
  "chain_research_gpt3.5.jsonl",
  "star_research_gpt3.5.jsonl",
  "tree_research_gpt3.5.jsonl",
  "graph_research_gpt3.5.jsonl",
  "discussion_output_gpt-4o-mini_0.jsonl",
  "coding_output.jsonl",
  "E_COMMERCE_MISSING_INDEXES_RESULT.json",
];
const byFile = new Map<string, AdaptedTrace[]>();
const of = (file: string) => byFile.get(file)!;
const total = (file: string, type: string) => of(file).reduce((s, t) => s + (eventTypes(t)[type] ?? 0), 0);

beforeAll(async () => {
  for (const file of FILES) byFile.set(file, await collect("marble", data(`multiagentbench_marble/${file}`)));
});

describe("MARBLE adapter on the real result files", () => {
  it("makes one valid trace per run; only runs with no iterations warn (a lone event)", () => {
    expect(FILES.map((f) => of(f).length)).toEqual([50, 50, 50, 50, 20, 6, 2]);
    for (const file of FILES) {
      for (const t of of(file)) {
        const warnings = expectValid(t);
        if (t.events.length > 1) expect(warnings, t.trace_id).toEqual([]);
        else expect(warnings).toEqual(['$.events[0]: event "e1" has no edges']);
        // the result files log no prompt an agent's model was sent: no model calls (docs/adapters.md)
        expect(t.calls).toBeUndefined();
      }
    }
  });

  it("reads the topology from the file name, mapped as SPEC.md says, the name kept", () => {
    const topologies = FILES.map((f) => [...new Set(of(f).map((t) => `${t.topology} ${String(t.metadata!.topology_detail)} ${String(t.metadata!.topology_from)}`))]);
    expect(topologies).toEqual([
      ["mixed chain file_name"],
      ["centralized star file_name"],
      ["hierarchical tree file_name"],
      ["mixed graph file_name"],
      // no topology in these names: coordination_mode decides
      ["mixed graph coordination_mode"],
      ["mixed chain coordination_mode"],
      ["centralized star coordination_mode"],
    ]);
    // research files all say "graph" in coordination_mode, whatever their topology
    expect(new Set(of("star_research_gpt3.5.jsonl").map((t) => t.metadata!.coordination_mode))).toEqual(new Set(["graph"]));
    expect(topologyOf("x/Tree_foo.jsonl", "graph")).toEqual({ topology: "hierarchical", detail: "tree", from: "file_name" });
    expect(topologyOf("x/foo.jsonl", "council")).toEqual({ topology: "unknown" });
  });

  it("turns every `From a to b:` line into a message, every result into a return", () => {
    // counted in the files with grep: From lines, task results (either shape), continue_simulation false
    const research = FILES.slice(0, 5);
    expect(research.map((f) => total(f, "message"))).toEqual([894, 732, 852, 636, 504]);
    expect(research.map((f) => total(f, "return"))).toEqual([401, 344, 442, 344, 1068]);
    expect(research.map((f) => of(f).flatMap((t) => t.events).filter((e) => e.decision === "stop").length)).toEqual([4, 9, 8, 12, 4]);
    expect(research.map((f) => total(f, "aggregate"))).toEqual([119, 112, 124, 120, 358]);
  });

  it("maps one run in detail (chain, line 0)", () => {
    const t = of("chain_research_gpt3.5.jsonl")[0]!;
    // 3 iterations, 3 agents: 1 task + 3 x 3 assignments + 3 continue decisions; 18 From lines; 8 results
    expect(eventTypes(t)).toEqual({ orchestrator_decision: 13, spawn: 3, message: 18, return: 8, aggregate: 3 });
    expect(t.events[0]).toMatchObject({ type: "orchestrator_decision", agent: PLANNER, kind: "task" });
    expect(t.costs.tokens).toBe(92322);
    expect(t.metrics).toEqual({ planning_score: 14 / 3, communication_score: 4, total_milestones: 3, innovation: 4, safety: 3, feasibility: 4 });
    expect(t.task_id).toMatch(/^marble-[0-9a-f]{12}$/);
  });

  it("spawns each agent once, then delegates to it", () => {
    const runs = of("tree_research_gpt3.5.jsonl");
    for (const t of runs) {
      const spawned = t.events.filter((e) => e.type === "spawn").map((e) => e.to);
      expect(new Set(spawned).size).toBe(spawned.length);
    }
    expect(runs.reduce((s, t) => s + (eventTypes(t).spawn ?? 0), 0)).toBe(227);
  });

  it("gives the same task the same task_id across topologies", () => {
    const ids = (f: string) => new Set(of(f).map((t) => t.task_id));
    expect([...ids("chain_research_gpt3.5.jsonl")].filter((id) => ids("star_research_gpt3.5.jsonl").has(id)).length).toBeGreaterThanOrEqual(45);
  });

  it("keeps the judge scores as labels and E1 unknown", () => {
    const t = of("E_COMMERCE_MISSING_INDEXES_RESULT.json")[1]!;
    expect(t.metrics).toMatchObject({ accuracy: 1 });
    expect(t.metrics?.task_success).toBeUndefined();
    expect((t.metadata!.labels as Record<string, unknown>).task_evaluation).toMatchObject({ root_cause: "MISSING_INDEXES" });
  });

  it("replaces NUL characters (which PostgreSQL cannot store) and says how many", () => {
    const t = of("chain_research_gpt3.5.jsonl")[1]!;
    expect(t.metadata!.nul_characters_replaced).toBeGreaterThan(0);
    expect(JSON.stringify(t)).not.toContain("\\u0000");
    expect(of("chain_research_gpt3.5.jsonl")[0]!.metadata!.nul_characters_replaced).toBeUndefined();
  });

  it("parses session transcripts, continuing multi-line messages", () => {
    expect(parseSession("In Session 1 \nFrom agent1 to agent2: hi\nsecond line\nFrom agent2 to agent1: ok")).toEqual([
      { from: "agent1", to: "agent2", content: "hi\nsecond line" },
      { from: "agent2", to: "agent1", content: "ok" },
    ]);
  });

  it("counts the runs without iterations", () => {
    expect(countBy(FILES.flatMap(of), (t) => (t.events.length === 1 ? "empty" : "run"))).toEqual({ empty: 13, run: 215 });
  });
});
