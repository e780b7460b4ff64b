import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { getRequest, params } from "@/scripts/lib/test-http";
import { GET as exportTrace } from "../traces/[id]/export/route";
import { POST } from "./route";

/** Imported files that hold model calls export them as transitions (SPEC.md section 6), prompt and response as the model saw and said them. */
type Run = { task_id: number; trial: number; traj: { role: string; content: string | null; tool_calls?: { id: string }[]; tool_call_id?: string }[] };
// the first run of the real file (task 0, trial 0), posted as a file of one run
const firstRun = (JSON.parse(readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8")) as Run[])[0]!;

async function importText(text: string, query: string) {
  const response = await POST(new Request(`http://localhost/api/import?${query}`, { method: "POST", body: text, headers: { "content-type": "application/octet-stream" } }), params({}));
  expect(response.status).toBe(201);
  return (await response.json()) as { format: string; traces: { trace_id: string }[] };
}
async function transitions(id: string) {
  const response = await exportTrace(getRequest(`/api/traces/${id}/export?format=transitions`), params({ id }));
  expect(response.status).toBe(200);
  expect(response.headers.get("x-baton-form")).toBe("transitions");
  return (await response.text()).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
});

describe("POST /api/import, then format=transitions", () => {
  it("a tau-bench run: one row per assistant turn, the conversation before it as the prompt, the turn as the response", async () => {
    const body = await importText(JSON.stringify([firstRun]), "format=auto&name=gpt-4o-airline.json");
    expect(body).toMatchObject({ format: "taubench", traces: [{ trace_id: "taubench-gpt-4o-airline-task0-trial0" }] });
    const rows = await transitions("taubench-gpt-4o-airline-task0-trial0");
    const turns = firstRun.traj.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
    expect(rows).toHaveLength(turns.length); // 15
    rows.forEach((row, k) => {
      const prompt = row.prompt as { role: string; content: string | null }[];
      const at = turns[k]!;
      expect(prompt.map((m) => m.role)).toEqual(firstRun.traj.slice(0, at).map((m) => m.role));
      expect(prompt.map((m) => m.content)).toEqual(firstRun.traj.slice(0, at).map((m) => m.content));
      expect((row.response as { content: string | null }).content).toBe(firstRun.traj[at]!.content);
      expect(row).toMatchObject({ step: k, agent: "assistant", traj_uid: "taubench-gpt-4o-airline-task0-trial0", group_id: "taubench-gpt-4o-airline-task0" });
    });
    // the sixth turn only calls a tool: no text, the call as sent; the tool replies in its prompt keep their ids
    expect(rows[5]!.response).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_HGn16KZh9oNCruxsMJ4gYXan", name: "search_onestop_flight", arguments: '{"origin":"JFK","destination":"SEA","date":"2024-05-20"}' }],
    });
    expect((rows[5]!.prompt as { tool_call_id?: string }[]).flatMap((m) => (m.tool_call_id ? [m.tool_call_id] : []))).toEqual(["call_oIHazX6yQrB8hUwl4cRilFKj", "call_HGn16KZh9oNCruxsMJ4gYXan"]);
    for (const row of rows) expect([typeof row.reward, typeof row.credit, typeof row.advantage]).toEqual(["number", "number", "number"]);
  });

  it("the AgentOps export: one row per LLM span, with its recorded prompt and reply", async () => {
    const body = await importText(readFileSync("../shared/data/agentops_crewai_ibm/agent_ops_traces.json", "utf8"), "format=auto&name=agent_ops_traces.json");
    expect(body.format).toBe("agentops");
    const rows = await transitions(body.traces[0]!.trace_id);
    expect(rows.map((r) => [r.agent, r.model])).toEqual([["Website Researcher", "ollama/llama3:latest"], ["Songwriter", "ollama/llama3:latest"]]);
    expect((rows[1]!.prompt as { role: string }[]).map((m) => m.role)).toEqual(["system", "user"]);
  });
});
