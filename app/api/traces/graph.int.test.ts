import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { GraphCreditPage, GraphEventsPage, GraphMeta } from "@/lib/graph-view/wire";
import { ROLE } from "@/lib/metrics/roles";
import { prisma } from "@/lib/server/db/client";
import { demoTraces, syntheticTrace } from "@/lib/demo";
import { getRequest, jsonRequest, params, type ErrorBody } from "@/scripts/lib/test-http";
import { GET as credit } from "./[id]/credit/route";
import { GET as graph } from "./[id]/graph/route";
import { POST } from "./route";

const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;

async function get<T>(handler: typeof graph, url: string, id: string) {
  const response = await handler(getRequest(url), params({ id }));
  const text = await response.text();
  return { status: response.status, bytes: text.length, body: JSON.parse(text) as T & ErrorBody };
}

beforeAll(async () => {
  await prisma().trace.deleteMany();
  const big = syntheticTrace({ events: 25_000, seed: 3, traceId: "graph-big", content: false });
  const debate = demoTraces().find((t) => t.trace_id === "demo-debate-webhooks-late-stop")!;
  for (const body of [example, big, debate]) expect((await POST(jsonRequest("/api/traces", body), params({}))).status).toBe(201);
}, 120_000);

describe("GET /api/traces/{id}/graph", () => {
  it("part=meta describes lanes, pages and string tables", async () => {
    const { status, body } = await get<GraphMeta>(graph, "/api/traces/demo-trace-001/graph", "demo-trace-001");
    expect(status).toBe(200);
    expect(body.version).toBe("baton-spec-4");
    expect([body.events, body.edges, body.pages, body.terminal, body.stop, body.timed]).toEqual([8, 8, 1, 7, null, true]);
    expect(body.lanes.map((l) => [l.agent, l.role, l.parent])).toEqual([["orchestrator", "lead", null], ["planner_1", "planner", 0], ["executor_1", "executor", 0], ["browser.search", null, null]]);
    expect(body.event_types).toHaveLength(10);
    expect(body.edge_types).toHaveLength(8);
  });

  it("part=events gives columns in event order with the metrics roles", async () => {
    const { body } = await get<GraphEventsPage>(graph, "/api/traces/demo-trace-001/graph?part=events", "demo-trace-001");
    expect(body.id).toEqual(["e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8"]);
    expect(body.lane).toEqual([0, 0, 0, 1, 2, 3, 2, 0]);
    expect(body.roles.map((r) => (r & ROLE.tainted) !== 0)).toEqual([false, false, false, false, false, true, true, true]);
    expect(body.edges.src).toHaveLength(8);
    expect(body.next).toBeNull();
  });

  it("pages a 25,000-event trace in responses of at most 20,000 events, each well under 4 MB", async () => {
    const meta = (await get<GraphMeta>(graph, "/api/traces/graph-big/graph", "graph-big")).body;
    expect([meta.events, meta.pages, meta.page_size]).toEqual([25_000, 2, 20_000]);
    const first = await get<GraphEventsPage>(graph, "/api/traces/graph-big/graph?part=events&from=0", "graph-big");
    const second = await get<GraphEventsPage>(graph, `/api/traces/graph-big/graph?part=events&from=${first.body.next}`, "graph-big");
    expect([first.body.count, second.body.count, second.body.from, second.body.next]).toEqual([20_000, 5_000, 20_000, null]);
    expect(first.body.edges.src.length + second.body.edges.src.length).toBe(meta.edges);
    expect(first.bytes).toBeLessThan(2.5 * 1024 * 1024);
  });

  it("another app process serves a big trace's pages from the database, the same bytes, without building the columns again", async () => {
    const text = async (from: number) => (await graph(getRequest(`/api/traces/graph-big/graph?part=events&from=${from}`), params({ id: "graph-big" }))).text();
    const built = [await text(0), await text(20_000)];
    const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: "graph-big" }, select: { id: true, updatedAt: true } });
    // the process that built them stored them once the build was done (in the background: wait for the rows)
    await expect.poll(() => prisma().graphPage.count({ where: { traceId: row.id, version: BigInt(row.updatedAt.getTime() * 16 + 2) } })).toBe(3);
    // this process now plays another one, which has built nothing
    const models = (globalThis as unknown as { batonGraphModels: Map<string, unknown> }).batonGraphModels;
    models.clear();
    expect([await text(0), await text(20_000)]).toEqual(built);
    const meta = await graph(getRequest("/api/traces/graph-big/graph"), params({ id: "graph-big" }));
    expect(((await meta.json()) as GraphMeta).pages).toBe(2);
    expect(models.size).toBe(0);
    // pages of another version of the trace are never served: the columns are built again
    await prisma().graphPage.updateMany({ where: { traceId: row.id }, data: { version: 1n } });
    expect(await text(20_000)).toEqual(built[1]);
    expect(models.size).toBe(1);
  });

  it("part=credit matches the credit endpoint, in event order", async () => {
    const url = "method=ccp&preset=code_generation&normalize=1";
    const columns = (await get<GraphCreditPage>(graph, `/api/traces/demo-trace-001/graph?part=credit&families=1&${url}`, "demo-trace-001")).body;
    const reference = (await get<{ events: { id: string; total: number; by_family: Record<string, number> }[]; r_total: number }>(credit, `/api/traces/demo-trace-001/credit?${url}`, "demo-trace-001")).body;
    expect(columns.total).toEqual(reference.events.map((e) => e.total));
    expect(columns.by_family!.task_success).toEqual(reference.events.map((e) => e.by_family.task_success));
    expect([columns.method, columns.preset, columns.normalize, columns.r_total]).toEqual(["ccp", "code_generation", true, reference.r_total]);
    const terminal = (await get<GraphCreditPage>(graph, "/api/traces/demo-trace-001/graph?part=credit&method=terminal", "demo-trace-001")).body;
    expect(terminal.by_family).toBeNull();
    expect(terminal.total.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it("part=credit reads message content, as message redundancy needs (the debate demo repeats itself)", async () => {
    const id = "demo-debate-webhooks-late-stop";
    const columns = (await get<GraphCreditPage>(graph, `/api/traces/${id}/graph?part=credit&families=1`, id)).body;
    const reference = (await get<{ events: { total: number; by_family: Record<string, number> }[]; families: Record<string, number | null> }>(credit, `/api/traces/${id}/credit`, id)).body;
    expect(reference.families.communication_efficiency).toBeCloseTo(1 - 2 * 0.25);
    expect(columns.families).toEqual(reference.families);
    expect(columns.total).toEqual(reference.events.map((e) => e.total));
  });

  it("rejects invalid parameters with the documented error shape", async () => {
    const tooMany = await get(graph, "/api/traces/demo-trace-001/graph?part=credit&families=1&limit=5000", "demo-trace-001");
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.code).toBe("invalid_parameter");
    expect(tooMany.body.error.details[0]!.path).toBe("limit");
    const badPart = await get(graph, "/api/traces/demo-trace-001/graph?part=everything", "demo-trace-001");
    expect([badPart.status, badPart.body.error.details[0]!.path]).toEqual([400, "part"]);
    const badMethod = await get(graph, "/api/traces/demo-trace-001/graph?part=credit&method=magic", "demo-trace-001");
    expect([badMethod.status, badMethod.body.error.details[0]!.path]).toEqual([400, "method"]);
    const group = await get(graph, "/api/traces/demo-trace-001/graph?part=credit&method=grpo", "demo-trace-001");
    expect([group.status, group.body.error.code]).toEqual([422, "group_too_small"]);
    const missing = await get(graph, "/api/traces/nope/graph", "nope");
    expect([missing.status, missing.body.error.code]).toEqual([404, "not_found"]);
  });
});
