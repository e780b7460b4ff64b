import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import type { LabelRowsPage } from "@/lib/annotate/rows";
import { syntheticTrace } from "@/lib/demo";
import type { GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { prisma } from "@/lib/server/db/client";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as rows } from "./[id]/annotations/rows/route";
import { GET as graph } from "./[id]/graph/route";
import { POST as ingest } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as { events: Record<string, unknown>[] } & Record<string, unknown>;
const PREFIX = "rows-trace-";

async function get<T>(handler: typeof rows, id: string, path: string): Promise<{ status: number; body: T }> {
  const response = await handler(getRequest(`/api/traces/${id}${path}`), params({ id }));
  return { status: response.status, body: (await response.json()) as T };
}

async function store(trace: Record<string, unknown>) {
  expect((await ingest(jsonRequest("/api/traces", trace), params({}))).status).toBe(201);
}

beforeEach(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { startsWith: PREFIX } } });
});

describe("GET /api/traces/{id}/annotations/rows", () => {
  it("the example: rows in event order with their summaries; the aggregate is the terminal; no stop decision", async () => {
    const id = `${PREFIX}example`;
    await store({ ...example, trace_id: id });
    const { status, body } = await get<LabelRowsPage>(rows, id, "/annotations/rows?from=2&limit=3");
    expect(status).toBe(200);
    expect(body).toMatchObject({ total: 8, terminal: 7, stop: null, from: 2, next: 5 });
    expect(body.rows.map((r) => [r.id, r.type, r.agent])).toEqual([
      ["e3", "spawn", "orchestrator"],
      ["e4", "message", "planner_1"],
      ["e5", "tool_call", "executor_1"],
    ]);
    expect(body.rows[2]!.summary).toContain("browser.search");
    const last = await get<LabelRowsPage>(rows, id, "/annotations/rows?from=5");
    expect(last.body.rows.map((r) => r.id)).toEqual(["e6", "e7", "e8"]);
    expect(last.body.next).toBeNull();
  });

  it("a stop decision anchors stop_decision; without an aggregate the last event in event order (not input order) is the terminal", async () => {
    const id = `${PREFIX}stop`;
    const events = [
      { id: "a", t: 0, type: "orchestrator_decision", agent: "o", decision: "continue" },
      { id: "d", t: 3, type: "message", agent: "o", from: "o", to: "w" },
      { id: "b", t: 1, type: "orchestrator_decision", agent: "o", decision: "stop", reason: "task_complete" },
      { id: "c", t: 2, type: "orchestrator_decision", agent: "o", decision: "stop" },
    ];
    await store({ ...example, trace_id: id, events, edges: [] });
    const { body } = await get<LabelRowsPage>(rows, id, "/annotations/rows");
    expect(body.rows.map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
    expect(body).toMatchObject({ total: 4, terminal: 3, stop: 2, next: null });
  });

  it("agrees with the graph API on a generated trace: same ids, types, summaries and anchors, page by page", async () => {
    const id = `${PREFIX}synthetic`;
    await store(syntheticTrace({ events: 600, seed: 11, traceId: id }) as unknown as Record<string, unknown>);
    const meta = (await get<GraphMeta>(graph, id, "/graph?part=meta")).body;
    const events = (await get<GraphEventsPage>(graph, id, "/graph?part=events&from=0&limit=600")).body;
    const pages: LabelRowsPage[] = [];
    for (let from: number | null = 0; from !== null; ) {
      const page: LabelRowsPage = (await get<LabelRowsPage>(rows, id, `/annotations/rows?from=${from}&limit=250`)).body;
      pages.push(page);
      from = page.next;
    }
    expect(pages.map((p) => p.from)).toEqual([0, 250, 500]);
    const all = pages.flatMap((p) => p.rows);
    expect(all.map((r) => r.id)).toEqual(events.id);
    expect(all.map((r) => r.summary)).toEqual(events.label);
    expect(all.map((r) => r.type)).toEqual(events.type.map((t) => meta.event_types[t]));
    expect(pages[0]).toMatchObject({ total: meta.events, terminal: meta.terminal, stop: meta.stop });
  });

  it("bad paging is a 400 with the parameter's path; an unknown trace a 404", async () => {
    const id = `${PREFIX}example`;
    await store({ ...example, trace_id: id });
    const bad = await get<{ error: { details: { path: string }[] } }>(rows, id, "/annotations/rows?limit=20001");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.path).toBe("limit");
    expect((await get(rows, id, "/annotations/rows?from=-1")).status).toBe(400);
    expect((await get(rows, `${PREFIX}nope`, "/annotations/rows")).status).toBe(404);
  });
});
