/**
 * One OTLP trace that fails while being stored never stops the others
 * (issue: a 3,000-character service.name made every flush answer 500 and
 * left every later trace unstored). A trace the database refuses for its
 * data is failed at once with the reason; one that fails for another
 * reason is retried with backoff a bounded number of times, then failed.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { POST as flushHandler } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { orchestratorRun, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { pool, prisma } from "@/lib/server/db/client";
import { finaliseIdleTraces, flushTraces, MAX_ATTEMPTS } from "./finalise";
import { listReceivingTraces } from "./receiving";
import { stopSweeper, sweepSettled } from "./sweeper";

const IDS = { poisoned: "aaaa0000000000000000000000000001", healthy: "ffff0000000000000000000000000002", flaky: "bbbb0000000000000000000000000003" };
const run = (traceId: string, service = "svc") =>
  toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId, resource: { ...s.resource, "service.name": service } })));
const send = (payload: unknown) =>
  tracesRoute(new Request("http://localhost/api/otel/v1/traces", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }));
const flush = () => flushHandler(new Request("http://localhost/api/otel/v1/flush", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }), { params: Promise.resolve({}) });

afterEach(async () => {
  await sweepSettled();
  await pool().query("DROP TRIGGER IF EXISTS fail_one_trace ON traces");
  await prisma().trace.deleteMany({ where: { traceId: { in: Object.values(IDS) } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: Object.values(IDS) } } });
});
afterAll(() => stopSweeper());

describe("OTLP finalisation isolation", () => {
  it("a trace the database refuses (3,000-character service.name) is failed with its reason; flush answers 200 and stores the others", async () => {
    // sorted first by its id, as a sender who chooses ids could arrange
    // incompressible, so that the index entry really is over btree's 2,704 bytes
    const longName = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(33 + ((i * 7919 + ((i * i) % 89)) % 94))).join("");
    expect((await send(run(IDS.poisoned, longName))).status).toBe(200);
    expect((await send(run(IDS.healthy))).status).toBe(200);
    const response = await flush();
    expect(response.status).toBe(200);
    const { traces } = (await response.json()) as { traces: { trace_id: string; status: string; error: string | null }[] };
    const byId = Object.fromEntries(traces.map((t) => [t.trace_id, t]));
    expect(byId[IDS.healthy]).toMatchObject({ status: "stored", error: null });
    expect(byId[IDS.poisoned]!.status).toBe("failed");
    expect(byId[IDS.poisoned]!.error).toBeTruthy();
    expect(await prisma().trace.count({ where: { traceId: IDS.healthy } })).toBe(1);
    expect(await prisma().trace.count({ where: { traceId: IDS.poisoned } })).toBe(0);
    // shown on the receiving list with its reason
    const shown = (await listReceivingTraces(100)).find((t) => t.trace_id === IDS.poisoned);
    expect(shown).toMatchObject({ status: "failed", error: byId[IDS.poisoned]!.error });
  });

  it("a failure that is not the data's is retried with backoff, skipped by sweeps meanwhile, and failed after MAX_ATTEMPTS", async () => {
    // a trigger that refuses this one trace with a server-side error (not a data exception)
    await pool().query(`CREATE OR REPLACE FUNCTION fail_one_trace() RETURNS trigger AS $$
      BEGIN IF NEW.trace_id = '${IDS.flaky}' THEN RAISE EXCEPTION 'storage unavailable' USING ERRCODE = '58030'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await pool().query("CREATE TRIGGER fail_one_trace BEFORE INSERT ON traces FOR EACH ROW EXECUTE FUNCTION fail_one_trace()");
    await send(run(IDS.flaky));
    await send(run(IDS.healthy));
    const first = await flushTraces();
    expect(first.find((t) => t.trace_id === IDS.flaky)).toMatchObject({ status: "receiving", error: expect.stringContaining("storage unavailable") as unknown });
    expect(first.find((t) => t.trace_id === IDS.healthy)).toMatchObject({ status: "stored" });
    const row = await prisma().otelTrace.findUniqueOrThrow({ where: { traceId: IDS.flaky } });
    expect(row.attempts).toBe(1);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    // a sweep does not take it again before its time
    expect((await finaliseIdleTraces(0)).map((t) => t.trace_id)).not.toContain(IDS.flaky);
    // naming it retries it now; after MAX_ATTEMPTS it stays failed
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) await flushTraces(IDS.flaky);
    const last = await prisma().otelTrace.findUniqueOrThrow({ where: { traceId: IDS.flaky } });
    expect([last.status, last.attempts]).toEqual(["failed", MAX_ATTEMPTS]);
    expect(last.error).toContain(`after ${MAX_ATTEMPTS} attempts`);
    expect((await finaliseIdleTraces(0)).map((t) => t.trace_id)).not.toContain(IDS.flaky);
  });
});
