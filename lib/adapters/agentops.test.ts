import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { adaptAgentOps } from "./agentops";
import { collect, data, expectValid } from "./fixtures";
import { AdapterInputError } from "./types";

const FILE = data("agentops_crewai_ibm/agent_ops_traces.json");

describe("AgentOps adapter on the CrewAI span export", () => {
  it("turns the 7-span tree into spawn/return structure with tokens and models", async () => {
    const [t, ...more] = await collect("agentops", FILE);
    expect(more).toEqual([]);
    expect(expectValid(t!)).toEqual([]);
    expect(t!.events.map((e) => `${e.type}:${e.agent}${e.to ? `->${e.to}` : ""}`)).toEqual([
      "orchestrator_decision:Crew",
      "spawn:Crew->Website Researcher",
      "return:Website Researcher->Crew",
      "spawn:Crew->Songwriter",
      "return:Songwriter->Crew",
      "aggregate:Crew",
    ]);
    expect(t!.edges.map((e) => `${e.src}>${e.dst}:${e.type}`)).toEqual([
      "e1>e2:spawn", "e2>e3:spawn", "e2>e4:temporal", "e3>e4:causal", "e3>e6:aggregate", "e4>e5:spawn", "e4>e6:temporal", "e5>e6:aggregate",
    ]);
    const returns = t!.events.filter((e) => e.type === "return");
    // gen_ai.usage.total_tokens of the two LLM spans; their sum is the workflow's reported 977
    expect(returns.map((e) => e.tokens)).toEqual([293, 684]);
    expect(t!.costs.tokens).toBe(977);
    expect(t!.metadata!.reported_tokens).toBe(977);
    expect(new Set(returns.map((e) => e.model))).toEqual(new Set(["ollama/llama3:latest"]));
  });

  it("keeps real time: seconds since the first span, LLM spans as intervals", async () => {
    const [t] = await collect("agentops", FILE);
    const researcher = t!.events[2]!;
    expect(researcher.t).toBe(0.01);
    expect(researcher.t_end).toBe(12.06);
    // the workflow span ends at 15:12:56.373933, 28.973084 s after it starts
    expect(t!.costs.wall_clock_s).toBe(28.97);
    expect(t!.metadata!.source).toMatchObject({ file: "agentops_crewai_ibm/agent_ops_traces.json", repo: "IBM/ibmdotcom-tutorials", commit: "d34ec8ea981cf8affb2a98491e79a3d9235f344e" });
  });

  it("refuses an export without spans", () => {
    const raw = JSON.parse(readFileSync(FILE, "utf8")) as Record<string, unknown>;
    expect(() => adaptAgentOps({ ...raw, spans: [] }, "x.json")).toThrow(AdapterInputError);
    expect(() => adaptAgentOps({ ...raw, spans: [] }, "x.json")).toThrow(/x\.json is not an AgentOps span-tree export .*\$\.spans: the export holds no spans/);
  });

  it("makes each LLM span a model call: the prompt and reply the span recorded, its model and token counts", async () => {
    const [t] = await collect("agentops", FILE);
    const calls = t!.calls!;
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => c.events)).toEqual(t!.events.filter((e) => e.type === "return").map((e) => [e.id]));
    const [researcher, songwriter] = calls;
    expect(researcher).toMatchObject({ agent: "Website Researcher", t: 0.01, t_end: 12.06, model: "ollama/llama3:latest", input_tokens: 210, output_tokens: 83, source: "import" });
    expect(researcher!.input.map((m) => m.role)).toEqual(["system", "user"]);
    expect(researcher!.input[0]!.content).toMatch(/^You are Website Researcher\. Expert researcher/);
    const reply = researcher!.output as { role: string; content: string };
    expect(Object.keys(reply).sort()).toEqual(["content", "role"]);
    expect([reply.role, reply.content.slice(0, 52)]).toEqual(["assistant", "Thought: I now have a great understanding of my task"]);
    expect(songwriter).toMatchObject({ input_tokens: 271, output_tokens: 413 });
    expect(researcher!.tools).toBeUndefined();
  });
});
