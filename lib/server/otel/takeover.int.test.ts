/**
 * A trace_id is unique across projects, and OTLP traces are stored in the
 * default project: spans whose trace id is a stored trace of another project
 * never replace it, move it or expose its labels, whoever sends them. The
 * finalisation fails with a reason that names no project.
 */
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as flushHandler } from "@/app/api/otel/v1/flush/route";
import { POST as tracesRoute } from "@/app/api/otel/v1/traces/route";
import { orchestratorRun, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { POST as ingest } from "@/app/api/traces/route";
import { pool, prisma } from "@/lib/server/db/client";
import { params } from "@/scripts/lib/test-http";
import { cleanAccounts, exampleTrace, keyFor, makeUser } from "@/scripts/lib/test-auth";
import { stopSweeper, sweepSettled } from "./sweeper";

const THEIRS = "c0ffee00000000000000000000000023";
const OURS = "c0ffee00000000000000000000000024";
const run = (traceId: string) => toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId })));
const post = (path: string, bearer: string, body: unknown) =>
  new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` }, body: JSON.stringify(body) });

let defaultIngest: string;

beforeEach(async () => {
  await sweepSettled();
  const root = await makeUser("otel-root", { isAdmin: true });
  const rootKey = (await keyFor(root, ["ingest"])).bearer;
  defaultIngest = (await keyFor(await makeUser("otel-default", { roles: { default: "annotator" } }), ["ingest", "read"])).bearer;
  // a trace of project pb whose trace_id is an OTLP id, with a trace-level label and its comment
  const theirs = { ...exampleTrace("x", "pb"), trace_id: THEIRS };
  expect((await ingest(post("/api/traces", rootKey, theirs), params({}))).status).toBe(201);
  await pool().query(
    "INSERT INTO annotations (trace_key, event_id, family, annotator_id, value, comment) VALUES ($1, '', 'task_success', $2, 1, 'pb-only comment')",
    [THEIRS, root.id],
  );
});

afterEach(async () => {
  await sweepSettled();
  await prisma().annotation.deleteMany({ where: { traceKey: { in: [THEIRS, OURS] } } });
  await prisma().trace.deleteMany({ where: { traceId: { in: [THEIRS, OURS] } } });
  await prisma().otelTrace.deleteMany({ where: { traceId: { in: [THEIRS, OURS] } } });
  await cleanAccounts();
});
afterAll(() => stopSweeper());

describe("OTLP spans never take over another project's trace", () => {
  it("spans with a pb trace's id from a default-only key: the pb trace stays as it was, the OTLP trace fails without naming pb, others are stored", async () => {
    const before = await prisma().trace.findUniqueOrThrow({ where: { traceId: THEIRS }, include: { project: true } });
    const sent = await tracesRoute(post("/api/otel/v1/traces", defaultIngest, { resourceSpans: [...run(THEIRS).resourceSpans, ...run(OURS).resourceSpans] }));
    expect(sent.status).toBe(200);
    const flushed = await flushHandler(post("/api/otel/v1/flush", defaultIngest, {}), params({}));
    const { traces } = (await flushed.json()) as { traces: { trace_id: string; status: string; error: string | null }[] };
    const byId = Object.fromEntries(traces.map((t) => [t.trace_id, t]));
    expect(byId[OURS]).toMatchObject({ status: "stored" });
    expect(byId[THEIRS]!.status).toBe("failed");
    expect(byId[THEIRS]!.error).toContain("taken by a trace you may not replace");
    expect(byId[THEIRS]!.error).not.toContain("pb");

    const after = await prisma().trace.findUniqueOrThrow({ where: { traceId: THEIRS }, include: { project: true } });
    expect([after.id, after.project.name, after.eventCount, after.system]).toEqual([before.id, "pb", before.eventCount, before.system]);
    const label = await prisma().annotation.findFirstOrThrow({ where: { traceKey: THEIRS } });
    expect(label.comment).toBe("pb-only comment");
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: OURS }, include: { project: true } })).project.name).toBe("default");
  });

  it("a site admin's spans do not move it either (OTLP traces are stored in default only)", async () => {
    const admin = (await keyFor(await makeUser("otel-admin2", { isAdmin: true }), ["ingest"])).bearer;
    expect((await tracesRoute(post("/api/otel/v1/traces", admin, run(THEIRS)))).status).toBe(200);
    const flushed = await flushHandler(post("/api/otel/v1/flush", admin, { trace_id: THEIRS }), params({}));
    expect(((await flushed.json()) as { traces: { status: string }[] }).traces[0]!.status).toBe("failed");
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: THEIRS }, include: { project: true } })).project.name).toBe("pb");
  });
});
