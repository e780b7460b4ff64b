import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { TRACE } from "@/lib/adapters/otlp-fixtures";
import { prisma } from "@/lib/server/db/client";

const run = promisify(execFile);
const SAMPLE = "lib/adapters/samples/otlp-orchestrator.json";

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/ingest.ts", ...args], {
      env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

beforeEach(async () => {
  await prisma().trace.deleteMany({ where: { traceId: TRACE } });
});

describe("npm run ingest -- --format otlp", () => {
  it("loads an OTLP/JSON export, by name or detected by content", async () => {
    expect(await cli("--format", "otlp", SAMPLE)).toMatchObject({ code: 0, out: expect.stringMatching(/ok\s+\S+otlp-orchestrator\.json: 1 trace\(s\), 10 events/) as unknown });
    const stored = await prisma().trace.findUniqueOrThrow({ where: { traceId: TRACE } });
    expect([stored.taskId, stored.system, stored.eventCount, stored.edgeCount]).toEqual([`trace-${TRACE}`, "research-crew", 10, 15]);
    expect((await cli("--upsert", SAMPLE)).code).toBe(0);
    expect((await cli("--format", "otlp", "../shared/data/tau_bench/gpt-4o-airline.json")).out).toMatch(/is not an OpenTelemetry OTLP\/JSON trace export .*: it looks like a tau-bench trajectory file/);
  });
});
