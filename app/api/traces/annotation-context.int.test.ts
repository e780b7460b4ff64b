import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { EventContext, TraceContext } from "@/lib/annotate/unit";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as context } from "./[id]/annotations/context/route";
import { POST as ingest } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as { events: Record<string, unknown>[] } & Record<string, unknown>;
const ID = "context-trace";
// the example with content: the tool call's arguments (JSON), its result, and the final answer
const CONTENT: Record<string, string> = { e4: "plan: search first", e5: '{"query":"baton","k":3}', e6: "3 results: <b>a</b>, b, c", e8: "final answer: 42" };
const trace = { ...example, trace_id: ID, metadata: { question: "What is the answer?" }, events: example.events.map((e) => ({ ...e, ...(CONTENT[e.id as string] && { content: CONTENT[e.id as string] }) })) };

async function get<T>(query: string): Promise<{ status: number; body: T }> {
  const response = await context(getRequest(`/api/traces/${ID}/annotations/context${query}`), params({ id: ID }));
  return { status: response.status, body: (await response.json()) as T };
}

beforeEach(async () => {
  await prisma().trace.deleteMany();
  expect((await ingest(jsonRequest("/api/traces", trace), params({}))).status).toBe(201);
});

describe("GET /api/traces/{id}/annotations/context", () => {
  it("a tool call: its content, what it read (direct causal predecessors) and its result", async () => {
    const { status, body } = await get<EventContext>("?event=e5");
    expect(status).toBe(200);
    expect(body.event).toMatchObject({ id: "e5", type: "tool_call", tool: "browser.search", content: '{"query":"baton","k":3}', content_length: 23 });
    expect(body.read.map((r) => [r.id, r.edge, r.content])).toEqual([["e4", "tool_dependency", "plan: search first"]]);
    expect(body.results.map((r) => [r.id, r.content])).toEqual([["e6", "3 results: <b>a</b>, b, c"]]);
  });
  it("an event reading two others lists both in event order; a first event reads nothing", async () => {
    expect((await get<EventContext>("?event=e4")).body.read.map((r) => r.id)).toEqual(["e2", "e3"]);
    expect((await get<EventContext>("?event=e1")).body).toMatchObject({ read: [], read_more: 0, results: [] });
  });
  it("the whole trace: the task from metadata, the terminal event as final answer, agents and timeline", async () => {
    const { body } = await get<TraceContext>("");
    expect(body).toMatchObject({ unit: "trace", task: "What is the answer?", task_source: "metadata.question", events: 8, timeline_gap: 0 });
    expect(body.final_answer).toMatchObject({ id: "e8", content: "final answer: 42" });
    expect(body.timeline.map((e) => e.id)).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
    expect(body.agents.map((a) => a.agent)).toEqual(["orchestrator", "planner_1", "executor_1", "browser.search"]);
  });
  it("an unknown event is a 404 with its path", async () => {
    const { status, body } = await get<{ error: { details: { path: string }[] } }>("?event=nope");
    expect(status).toBe(404);
    expect(body.error.details[0]!.path).toBe("event");
  });
});
