/**
 * Python runs replayed unchanged into the OTLP receiver, as an exporter sends
 * them (the published-format fixtures of lib/adapters/otlp/fixtures and the
 * real AgentOps export in shared/data): staged, flushed, stored, read back
 * through the API with their agents, hand-overs, answers and notes.
 */
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { POST as flushHandler } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { GET as getTrace } from "@/app/api/traces/[id]/route";
import { data } from "@/lib/adapters/fixtures";
import { TRACE, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import { agentOpsExportSpans } from "@/lib/adapters/otlp/fixtures/agentops-export";
import { AUTOGEN_CREATE_AGENTS } from "@/lib/adapters/otlp/fixtures/python-live";
import { ADK_ANSWER, LF_ANSWER, PUBLISHED_RUNS } from "@/lib/adapters/otlp/fixtures/python-published";
import { prisma } from "@/lib/server/db/client";
import { getRequest, params } from "@/scripts/lib/test-http";
import { listReceivingTraces, receivingState } from "./receiving";
import { stopSweeper, sweepSettled } from "./sweeper";

interface Stored {
  system: string;
  topology: string;
  metadata: { otlp: { notes?: string[]; families: string[] } };
  events: { type: string; agent: string; to?: string; content?: string }[];
}

const AGENTOPS = agentOpsExportSpans(data("agentops_crewai_ibm/agent_ops_traces.json"));
const TRACE_IDS = [TRACE, AGENTOPS[0]!.traceId];

async function replay(spans: readonly OtlpSpan[]): Promise<Stored> {
  const sent = await tracesRoute(new Request("http://localhost/api/otel/v1/traces", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(toOtlpJson(spans)) }));
  expect(sent.status).toBe(200);
  const traceId = spans[0]!.traceId;
  const flushed = await flushHandler(new Request("http://localhost/api/otel/v1/flush", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trace_id: traceId }) }), { params: Promise.resolve({}) });
  expect(((await flushed.json()) as { traces: { status: string; error: string | null }[] }).traces).toMatchObject([{ status: "stored", error: null }]);
  return (await (await getTrace(getRequest(`/api/traces/${traceId}?content=1`), params({ id: traceId }))).json()) as Stored;
}

const lanes = (t: Stored) => [...new Set(t.events.map((e) => e.agent))].sort();

beforeEach(async () => {
  await sweepSettled();
  await prisma().trace.deleteMany({ where: { traceId: { in: TRACE_IDS } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: TRACE_IDS } } });
});

afterAll(async () => {
  stopSweeper();
  await sweepSettled();
  await prisma().trace.deleteMany({ where: { traceId: { in: TRACE_IDS } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: TRACE_IDS } } });
});

describe("framework bookkeeping through POST /api/otel/v1/traces", () => {
  it("AutoGen's create_agent spans, made outside the run, become no trace and are listed nowhere", async () => {
    const traceId = AUTOGEN_CREATE_AGENTS[0]!.traceId;
    await prisma().otelTrace.deleteMany({ where: { traceId } });
    const sent = await tracesRoute(new Request("http://localhost/api/otel/v1/traces", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(toOtlpJson(AUTOGEN_CREATE_AGENTS)) }));
    expect(sent.status).toBe(200);
    const flushed = await flushHandler(new Request("http://localhost/api/otel/v1/flush", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ trace_id: traceId }) }), { params: Promise.resolve({}) });
    expect(((await flushed.json()) as { traces: { status: string; error: string | null }[] }).traces).toMatchObject([{ status: "ignored", error: expect.stringMatching(/^only agent-creation spans/) as unknown }]);
    expect(await prisma().trace.count({ where: { traceId } })).toBe(0);
    expect((await listReceivingTraces()).map((t) => t.trace_id)).not.toContain(traceId);
    expect(await receivingState(traceId)).toBeNull();
    await prisma().otelTrace.deleteMany({ where: { traceId } });
  });
});

describe("Python runs through POST /api/otel/v1/traces", () => {
  it("logfire's OpenAI Agents run keeps both agents, the handoff and the answer", async () => {
    const stored = await replay(PUBLISHED_RUNS.logfireOpenAiAgents);
    expect(lanes(stored)).toEqual(["agent1", "agent2"]);
    expect(stored.events.filter((e) => e.type === "spawn").map((e) => `${e.agent}->${e.to}`)).toEqual(["agent1->agent2"]);
    expect(stored.events.find((e) => e.type === "aggregate")?.content).toBe(LF_ANSWER);
    expect(stored).toMatchObject({ system: "unknown_service", topology: "centralized", metadata: { otlp: { families: ["logfire"] } } });
  });

  it("a partial Google ADK export keeps its three tool calls and stores the note that says what was missing", async () => {
    const stored = await replay(PUBLISHED_RUNS.adkPartial);
    expect(stored.events.filter((e) => e.type === "tool_call")).toHaveLength(3);
    expect(stored.events.find((e) => e.type === "aggregate")?.content).toBe(ADK_ANSWER);
    expect(stored.metadata.otlp.notes).toEqual([expect.stringMatching(/^2 span\(s\) whose parent is not in the export \([0-9a-f]{16}\) were kept where their time places them: call_llm at the top of the run$/)]);
  });

  it("the real AgentOps CrewAI export is stored (it was refused: no span had gen_ai.operation.name)", async () => {
    const stored = await replay(AGENTOPS);
    expect(lanes(stored)).toEqual(["Songwriter", "Website Researcher"]);
    expect(stored.events.filter((e) => e.type === "aggregate").map((e) => e.content?.slice(0, 8))).toEqual(["Verse 1:"]);
  });
});
