/**
 * A span parent chain thousands deep (one export of 20,000 spans blocked the
 * server for 12.7 s; 5,000 overflowed the stack while mapping) is refused
 * before mapping, by an iterative count: the trace is failed with the reason,
 * the flush answers at once, the other traces are stored.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { POST as flushHandler } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { orchestratorRun, span, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { MAX_SPAN_DEPTH, parentChainDepth } from "./finalise";
import { stopSweeper, sweepSettled } from "./sweeper";

const DEEP = "dee90000000000000000000000000001";
const FINE = "dee90000000000000000000000000002";
const post = (path: string, body: unknown) => new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

afterEach(async () => {
  await sweepSettled();
  await prisma().trace.deleteMany({ where: { traceId: { in: [DEEP, FINE] } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: [DEEP, FINE] } } });
});
afterAll(() => stopSweeper());

describe("deep span chains", () => {
  it("counts depth by hand: a chain of 3, a tree, a parent outside the export, a cycle", () => {
    expect(parentChainDepth([{ spanId: "a" }, { spanId: "b", parentSpanId: "a" }, { spanId: "c", parentSpanId: "b" }])).toBe(3);
    expect(parentChainDepth([{ spanId: "a" }, { spanId: "b", parentSpanId: "a" }, { spanId: "c", parentSpanId: "a" }])).toBe(2);
    expect(parentChainDepth([{ spanId: "b", parentSpanId: "missing" }])).toBe(1);
    expect(parentChainDepth([{ spanId: "a", parentSpanId: "b" }, { spanId: "b", parentSpanId: "a" }])).toBe(Infinity);
    const chain = Array.from({ length: 20_000 }, (_, i) => ({ spanId: `s${i}`, ...(i > 0 && { parentSpanId: `s${i - 1}` }) }));
    expect(parentChainDepth(chain)).toBeGreaterThan(MAX_SPAN_DEPTH);
  });

  it("a 5,000-span chain: failed with the reason (no stack overflow), the other trace of the export stored", async () => {
    const chain = Array.from({ length: 5000 }, (_, i) => ({
      ...span({ id: `c${i}`, ...(i > 0 && { parent: `c${i - 1}` }), name: "invoke_agent worker", start: i * 0.001, end: 10 - i * 0.001 }),
      traceId: DEEP,
    }));
    const fine = orchestratorRun().map((s) => ({ ...s, traceId: FINE }));
    expect((await tracesRoute(post("/api/otel/v1/traces", { resourceSpans: [...toOtlpJson(chain).resourceSpans, ...toOtlpJson(fine).resourceSpans] }))).status).toBe(200);
    const flushed = await flushHandler(post("/api/otel/v1/flush", {}), params({}));
    const { traces } = (await flushed.json()) as { traces: { trace_id: string; status: string; error: string | null }[] };
    const byId = Object.fromEntries(traces.map((t) => [t.trace_id, t]));
    expect(byId[DEEP]).toMatchObject({ status: "failed", error: `spans nested more than ${MAX_SPAN_DEPTH} levels deep (a parent of a parent of ...): not mapped` });
    expect(byId[FINE]).toMatchObject({ status: "stored" });
  });
});
