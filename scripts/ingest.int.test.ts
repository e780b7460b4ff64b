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

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/ingest.ts", ...args], {
      env: { ...process.env, DATABASE_URL: inject("databaseUrl") },
    });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout, err: e.stderr };
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
    // a syntax error in a single .json is placed by line and column, as an editor shows them
    writeFileSync(path.join(dir, "broken.json"), '{\n  "trace_id": "broken",\n  "events": [x]\n}\n');
    const broken = await cli(path.join(dir, "broken.json"));
    expect(broken.code).toBe(1);
    expect(broken.out).toContain("$: malformed JSON at line 3, column 14: Unexpected token 'x'");
  });

  it("refuses an existing trace_id unless --upsert", async () => {
    writeFileSync(path.join(dir, "t.json"), line("again"));
    expect((await cli(path.join(dir, "t.json"))).code).toBe(0);
    // a rerun: the file is said to be stored already, not a failure
    const second = await cli(path.join(dir, "t.json"));
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/stored\s+\S+t\.json: already stored \(again\); nothing written/);
    expect(second.out).toContain("0 file(s) ok, 1 already stored, 0 failed");
    expect(second.out).toContain("--upsert replaces them, --skip-existing loads only their new traces");
    expect((await cli("--upsert", path.join(dir, "t.json"))).code).toBe(0);
    expect(await prisma().trace.count()).toBe(1);
  });

  it("a rerun over a ChatDev run folder says it is stored already, under the id its uploaded .log gets", async () => {
    const folder = "../shared/data/chatdev_warehouse/Gomoku_THUNLP_20230625201030";
    expect((await cli(folder)).code).toBe(0);
    const again = await cli(folder);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/stored\s+\S+Gomoku_THUNLP_20230625201030: already stored \(chatdev-20230625201030\)/);
    expect(again.out).not.toContain("FAILED");
  });

  it("--skip-existing loads what is new in a partly stored folder and leaves the stored traces as they are", async () => {
    writeFileSync(path.join(dir, "a.json"), line("skip-a"));
    writeFileSync(path.join(dir, "nested", "bc.jsonl"), [line("skip-b"), line("skip-c")].join("\n"));
    expect((await cli(path.join(dir, "a.json"))).code).toBe(0);
    const before = await prisma().trace.findUniqueOrThrow({ where: { traceId: "skip-a" } });
    // without it: the stored file is listed as stored already, and the new one loaded
    const plain = await cli(dir);
    expect(plain.code).toBe(0);
    expect(plain.out).toMatch(/stored\s+\S+a\.json: already stored/);
    expect(plain.out).toContain("1 file(s) ok, 1 already stored, 0 failed");
    await prisma().trace.deleteMany({ where: { traceId: { in: ["skip-b", "skip-c"] } } });
    // a file whose one trace is stored, and a file with one stored and one new trace
    writeFileSync(path.join(dir, "nested", "bc.jsonl"), [line("skip-b"), line("skip-c")].join("\n"));
    await cli(path.join(dir, "nested", "bc.jsonl"));
    writeFileSync(path.join(dir, "nested", "bc.jsonl"), [line("skip-b"), line("skip-c"), line("skip-d")].join("\n"));
    const { code, out } = await cli("--skip-existing", dir);
    expect(code).toBe(0);
    expect(out).toMatch(/skipped \S+a\.json: its 1 trace\(s\) are stored already/);
    expect(out).toMatch(/ok\s+\S+bc\.jsonl: 1 trace\(s\), 8 events; 2 stored already, skipped/);
    expect(out).toContain("2 file(s) ok, 0 failed");
    expect((await prisma().trace.findMany({ orderBy: { traceId: "asc" } })).map((t) => t.traceId)).toEqual(["skip-a", "skip-b", "skip-c", "skip-d"]);
    // the stored trace was not rewritten
    expect((await prisma().trace.findUniqueOrThrow({ where: { traceId: "skip-a" } })).id).toBe(before.id);
    expect(await cli("--skip-existing", "--upsert", dir)).toMatchObject({ code: 2, err: expect.stringContaining("--upsert and --skip-existing exclude each other") as unknown });
  });

  it("--help prints the usage and exits 0; no argument prints it and exits 2", async () => {
    const help = await cli("--help");
    expect(help.code).toBe(0);
    expect(help.out).toContain("usage: npm run ingest -- [options] <files or folders>");
    expect(help.out).toContain("--skip-existing");
    expect(help.out).toContain("auto | baton | whowhen | marble | taubench | chatdev | agentops | otlp");
    expect((await cli("-h")).out).toBe(help.out);
    const none = await cli();
    expect(none.code).toBe(2);
    expect(none.err).toContain("usage: npm run ingest");
  });

  it("names an empty file, a CSV and a binary file for what they are, without echoing bytes, storing nothing", async () => {
    writeFileSync(path.join(dir, "empty.json"), "");
    const { code, out } = await cli(path.join(dir, "empty.json"), "lib/ingest/fixtures/runs.csv", "app/favicon.ico", path.join(dir, "nested"));
    expect(code).toBe(1);
    expect(out).toMatch(/FAILED\s+\S+empty\.json: nothing stored; 1 problem\(s\)\n\s+\$: empty file: it holds no traces/);
    expect(out).toMatch(/FAILED\s+\S+runs\.csv: nothing stored; 1 problem\(s\)\n\s+\$: CSV is not a supported format \(supported: JSON or JSONL traces/);
    expect(out).toMatch(/FAILED\s+\S+favicon\.ico: nothing stored; 1 problem\(s\)\n\s+\$: binary file \(not text\): not a supported format/);
    // nothing but printable text and line breaks reaches the terminal
    expect(out).toMatch(/^[\x20-\x7e\n]*$/);
    expect(await prisma().trace.count()).toBe(0);
  });
});
