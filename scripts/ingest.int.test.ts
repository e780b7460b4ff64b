import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { prisma } from "@/lib/server/db/client";

const run = promisify(execFile);
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const dir = path.join(tmpdir(), `baton-cli-${process.pid}`);

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

const line = (id: string, patch: Record<string, unknown> = {}) => JSON.stringify({ ...example, trace_id: id, ...patch });

beforeEach(async () => {
  await prisma().trace.deleteMany();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "nested"), { recursive: true });
});

describe("npm run ingest", () => {
  it("loads folders of .json and .jsonl files and summarises each file", async () => {
    writeFileSync(path.join(dir, "one.json"), line("cli-one"));
    writeFileSync(path.join(dir, "nested", "many.jsonl"), [line("cli-a"), "", line("cli-b"), line("cli-c")].join("\n"));
    writeFileSync(path.join(dir, "notes.txt"), "ignored");
    const { code, out } = await cli(dir);
    expect(code).toBe(0);
    expect(out).toMatch(/ok\s+\S+many\.jsonl: 3 trace\(s\), 24 events/);
    expect(out).toMatch(/ok\s+\S+one\.json: 1 trace\(s\), 8 events/);
    expect(out).toContain("2 file(s) ok, 0 failed");
    expect((await prisma().trace.findMany({ orderBy: { traceId: "asc" } })).map((t) => t.traceId)).toEqual(["cli-a", "cli-b", "cli-c", "cli-one"]);
  });

  it("stores nothing from a file with one bad record, reports its path, and exits 1", async () => {
    writeFileSync(path.join(dir, "mixed.jsonl"), [line("ok-1"), line("bad-2", { events: [], edges: [] }), "{not json", line("ok-3")].join("\n"));
    writeFileSync(path.join(dir, "good.json"), line("good"));
    const { code, out } = await cli(path.join(dir, "mixed.jsonl"), path.join(dir, "good.json"));
    expect(code).toBe(1);
    expect(out).toMatch(/FAILED\s+\S+mixed\.jsonl: nothing stored; 2 problem\(s\)/);
    expect(out).toContain("$[1].events: a trace needs at least one event");
    expect(out).toContain("$[2]: malformed JSON on line 3");
    expect(out).toContain("1 file(s) ok, 1 failed");
    expect((await prisma().trace.findMany()).map((t) => t.traceId)).toEqual(["good"]);
  });

  it("refuses an existing trace_id unless --upsert", async () => {
    writeFileSync(path.join(dir, "t.json"), line("again"));
    expect((await cli(path.join(dir, "t.json"))).code).toBe(0);
    const second = await cli(path.join(dir, "t.json"));
    expect(second.code).toBe(1);
    expect(second.out).toContain('trace_id "again" exists');
    expect((await cli("--upsert", path.join(dir, "t.json"))).code).toBe(0);
    expect(await prisma().trace.count()).toBe(1);
  });
});
