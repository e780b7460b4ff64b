import { readFileSync } from "node:fs";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { syntheticTrace } from "@/lib/demo/synthetic";
import { exportSlotsInUse, HEAVY_EXPORT_EVENTS, setExportLimits } from "@/lib/server/compute/export-slots";
import { prisma } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as exportDataset } from "../export/route";
import { GET as exportTrace } from "./[id]/export/route";
import { POST as ingest } from "./route";

/** Big exports take turns (export slots of the process): waiting in order, 503 with Retry-After past the queue, the slot given back however the stream ends. */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
// both traces: far more than one pull of the stream, so the slot is held until the client reads on
const dataset = () => exportDataset(getRequest("/api/export?format=jsonl"), params({}));
const BIG = "slots-big";

/** Whether the promise has settled after the event loop has had a few turns. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return done;
}

beforeAll(async () => {
  await prisma().trace.deleteMany();
  expect((await ingest(jsonRequest("/api/traces", example), params({}))).status).toBe(201);
  await ingestRecords([{ value: syntheticTrace({ events: HEAVY_EXPORT_EVENTS, seed: 3, traceId: BIG, content: false }), base: "$" }], { upsert: true });
});

afterEach(() => {
  setExportLimits({ slots: 2, queue: 16 });
});

describe("export slots", () => {
  it("one slot, a queue of one: the second export waits, the third hears 503 busy with Retry-After; draining the first lets the second in", async () => {
    setExportLimits({ slots: 1, queue: 1 });
    const first = await dataset();
    expect(first.status).toBe(200);
    const second = dataset();
    // its checks read the database first; then it queues
    for (let i = 0; i < 500 && exportSlotsInUse().waiting === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(exportSlotsInUse()).toEqual({ active: 1, waiting: 1 });
    expect(await settled(second)).toBe(false);
    const third = await dataset();
    expect(third.status).toBe(503);
    expect(third.headers.get("retry-after")).toBe("5");
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe("busy");
    const text = await first.text();
    expect(text.trim().split("\n").length).toBe((example.events as unknown[]).length + HEAVY_EXPORT_EVENTS);
    const next = await second;
    expect(next.status).toBe(200);
    expect(exportSlotsInUse()).toEqual({ active: 1, waiting: 0 });
    // a client that goes away gives the slot back too
    await next.body!.cancel();
    expect(exportSlotsInUse()).toEqual({ active: 0, waiting: 0 });
  });

  it(`a trace export of ${HEAVY_EXPORT_EVENTS} events takes a slot, a small trace's does not`, async () => {
    setExportLimits({ slots: 1, queue: 0 });
    const holder = await dataset();
    expect(holder.status).toBe(200);
    const small = await exportTrace(getRequest(`/api/traces/${String(example.trace_id)}/export?format=jsonl`), params({ id: String(example.trace_id) }));
    expect(small.status).toBe(200);
    await small.text();
    const big = await exportTrace(getRequest(`/api/traces/${BIG}/export?format=jsonl`), params({ id: BIG }));
    expect(big.status).toBe(503);
    await holder.text();
    expect(exportSlotsInUse()).toEqual({ active: 0, waiting: 0 });
    const again = await exportTrace(getRequest(`/api/traces/${BIG}/export?format=jsonl`), params({ id: BIG }));
    expect(again.status).toBe(200);
    expect((await again.text()).trim().split("\n").length).toBe(HEAVY_EXPORT_EVENTS);
    expect(exportSlotsInUse()).toEqual({ active: 0, waiting: 0 });
  });
});
