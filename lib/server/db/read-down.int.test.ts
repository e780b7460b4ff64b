/**
 * A read replica that does not answer is skipped: reads go to the primary,
 * nothing answers 5xx, and /api/status says the replica is down. Runs
 * everywhere (no standby needed: the "replica" is a port nothing listens on).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listTraces, POST as ingest } from "@/app/api/traces/route";
import { GET as status } from "@/app/api/status/route";
import { closeDatabase, prisma } from "@/lib/server/db/client";
import { exampleTrace, TRACE_PREFIX } from "@/scripts/lib/test-auth";
import { jsonRequest, params } from "@/scripts/lib/test-http";

const before = process.env.DATABASE_READ_URL;
const ID = `${TRACE_PREFIX}replica-down`;

beforeAll(async () => {
  await closeDatabase();
  const dead = new URL(process.env.DATABASE_URL!);
  dead.port = "1";
  process.env.DATABASE_READ_URL = dead.toString();
  await prisma().trace.deleteMany({ where: { traceId: ID } });
});

afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: ID } });
  await closeDatabase();
  if (before === undefined) delete process.env.DATABASE_READ_URL;
  else process.env.DATABASE_READ_URL = before;
});

describe("a read replica that is down", () => {
  it("is skipped: every read is served by the primary, and a write still answers its position", async () => {
    const written = await ingest(jsonRequest("/api/traces", exampleTrace("replica-down")), params({}));
    expect(written.status).toBe(201);
    expect(written.headers.get("baton-lsn")).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    const answers = await Promise.all(Array.from({ length: 8 }, () => listTraces(new Request("http://localhost/api/traces?limit=50"), params({}))));
    expect(answers.map((r) => [r.status, r.headers.get("baton-database")])).toEqual(Array.from({ length: 8 }, () => [200, "primary"]));
    const listed = (await answers[0]!.json()) as { traces: { trace_id: string }[] };
    expect(listed.traces.map((t) => t.trace_id)).toContain(ID);
    const body = (await (await status(new Request("http://localhost/api/status"), params({}))).json()) as { databases: { name: string; state?: string; served: number }[] };
    expect(body.databases.map((d) => [d.name, d.state ?? null])).toEqual([["primary", null], ["replica-1", "down"]]);
    expect(body.databases[0]!.served).toBeGreaterThanOrEqual(8);
    expect(body.databases[1]!.served).toBe(0);
  });
});
