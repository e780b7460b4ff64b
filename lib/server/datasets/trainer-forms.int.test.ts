import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as create } from "@/app/api/datasets/route";
import { POST as ingest } from "@/app/api/traces/route";
import { collect, data } from "@/lib/adapters/fixtures";
import { TRAINER_FORMS, type TrainerForm } from "@/lib/export/trainers";
import { duck, snapshot as sharedSnapshot, snapshotFile } from "@/scripts/lib/test-datasets";
import { jsonRequest, params } from "@/scripts/lib/test-http";
import { prisma } from "../db/client";

/**
 * Snapshots in the trainer forms (docs/train-with-baton.md) of two tau-bench
 * runs and a trace with token ids, built by the real worker on real
 * PostgreSQL, read back with DuckDB against the schemas read from each
 * trainer's source (lib/export/fixtures/trainer-schemas).
 */

interface Summary {
  id: number;
  state: string;
  manifest: { form: string; counts: { traces: number; rows: number; traces_without_calls: number } } | null;
  files?: { path: string; sha256: string }[];
}

const tau: Record<string, unknown>[] = [];
const withCalls = JSON.parse(readFileSync("lib/export/fixtures/calls-trace.json", "utf8")) as Record<string, unknown>;
const withoutCalls = { ...(JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>), trace_id: "trainer-forms-no-calls" };
let ids: string[] = [];

beforeAll(async () => {
  // the file's first two runs: tasks 0 and 1, trial 0, with 15 and 5 assistant turns (model calls)
  tau.push(...((await collect("taubench", data("tau_bench/gpt-4o-airline.json"))).slice(0, 2) as unknown as Record<string, unknown>[]));
  const all = [...tau, { ...withCalls, trace_id: "trainer-forms-calls" }, withoutCalls];
  ids = all.map((t) => t.trace_id as string);
  await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
  for (const t of all) expect((await ingest(jsonRequest("/api/traces", t), params({}))).status).toBe(201);
});

afterAll(async () => {
  await prisma().trace.deleteMany({ where: { traceId: { in: ids } } });
});

const snapshot = (body: Record<string, unknown>) => sharedSnapshot<Summary>(body);
const file = snapshotFile;

const request = (form: string, format = "parquet") => ({ name: `trainer-${form}`, filter: { ids: ids.join(",") }, form, format, method: "ccp", preset: "customer_support" });
const schemaOf = (form: TrainerForm) => JSON.parse(readFileSync(`lib/export/fixtures/trainer-schemas/${form}.json`, "utf8")) as { columns: { name: string; duckdb_type: string }[]; never_null: string[] };

describe("snapshots in the trainer forms", () => {
  it("each form: the fixture's columns and types, one row per call (per trace for rllm and agent_lightning), traces without calls counted", async () => {
    for (const form of TRAINER_FORMS) {
      const s = await snapshot(request(form));
      const perTrace = form === "rllm" || form === "agent_lightning";
      // 15 + 5 tau-bench calls and 3 of the fixture; the example trace has none
      expect(s.manifest!.counts, form).toMatchObject({ traces: 3, rows: perTrace ? 3 : 23, traces_without_calls: 1 });
      expect(s.manifest!.form).toBe(form);
      const described = await duck(s, (glob) => `DESCRIBE SELECT * FROM read_parquet('${glob}')`);
      expect(described.map((d) => [d.column_name, d.column_type]), form).toEqual(schemaOf(form).columns.map((c) => [c.name, c.duckdb_type]));
      const nulls = await duck(s, (glob) => `SELECT ${schemaOf(form).never_null.map((c) => `count(*) FILTER (WHERE "${c}" IS NULL)::INTEGER AS "${c}"`).join(", ")} FROM read_parquet('${glob}')`);
      expect(Object.values(nulls[0]!).every((n) => n === 0), form).toBe(true);
    }
  });

  it("verl: the tau-bench trial's first call as the trainer reads it (prompt messages, extra_info with Baton's values)", async () => {
    const s = await snapshot(request("verl"));
    const rows = await duck(s, (glob) => `SELECT prompt, extra_info.call_id AS call_id, extra_info.reward AS reward, extra_info.credit AS credit, extra_info.index AS "index" FROM read_parquet('${glob}') WHERE extra_info.trace_id = 'taubench-gpt-4o-airline-task0-trial0' ORDER BY extra_info.index`);
    expect(rows).toHaveLength(15);
    const first = rows[0]!;
    const source = tau[0]!.calls as { input: { role: string; content: string }[] }[];
    expect(first.call_id).toBe("call1");
    expect((first.prompt as { role: string; content: string }[]).map((m) => [m.role, m.content])).toEqual(source[0]!.input.map((m) => [m.role, m.content]));
    // CCP along the chain of 30 events, R_total -1: the last call's event keeps 0.7, each step back 0.7 of the one after
    expect(rows[14]!.credit as number).toBeCloseTo(-0.7, 12);
    expect(rows[0]!.credit as number).toBeCloseTo(-(0.7 ** 29), 15);
    expect(rows.every((r) => r.reward === 0)).toBe(true);
  });

  it("JSONL: the same rows as JSON lines", async () => {
    const s = await snapshot(request("verl_agent", "jsonl"));
    const lines = (await file(s.id, "data/train-00000-of-00001.jsonl")).toString("utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(23);
    expect(Object.keys(lines[0]!)).toEqual(schemaOf("verl_agent").columns.map((c) => c.name));
    expect(new Set(lines.filter((l) => String(l.traj_uid).startsWith("taubench")).map((l) => l.uid))).toEqual(new Set(["taubench-gpt-4o-airline-task0", "taubench-gpt-4o-airline-task1"]));
  });

  it("rows take content (off by default); content with another form is a 400 at $.content", async () => {
    const withContent = await snapshot({ ...request("rows", "jsonl"), content: true });
    const rows = (await file(withContent.id, "data/train-00000-of-00001.jsonl")).toString("utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const answer = rows.find((r) => r.traj_uid === "taubench-gpt-4o-airline-task0-trial0" && r.event_id === "e30")!;
    expect(String(answer.content)).toContain("has been successfully booked");
    const without = await snapshot(request("rows", "jsonl"));
    const plain = (await file(without.id, "data/train-00000-of-00001.jsonl")).toString("utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(plain.every((r) => !("content" in r))).toBe(true);
    const bad = await create(jsonRequest("/api/datasets", { ...request("transitions"), content: true }), params({}));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path)).toEqual(["$.content"]);
  });
});
