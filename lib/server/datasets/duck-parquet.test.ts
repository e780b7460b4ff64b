import { DuckDBInstance } from "@duckdb/node-api";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "@/lib/datasets/layout";
import { formColumns } from "@/lib/export/parquet-forms";
import { ShardFile } from "./shard-file";

/** Rows of the transitions form whose JSON cells DuckDB would not keep as text when read as JSON (1e+21, a lone surrogate), beside plain ones. */
function rows(): Record<string, unknown>[] {
  const base = { uid: "u", group_id: "g", traj_uid: "t", step: 0, call_id: "c", agent: "a", role: "assistant", model: "m", prompt: [{ role: "user", content: "hi é 😀 \u2028" }], response: { content: "ok", n: 0.1 }, prompt_token_ids: [1, 2], response_token_ids: null, reward: 1, credit: 0.5, advantage: -0.25, anchor_obs: null, hacking_flags: [], method: "ccp", preset: "uniform", version: "v", annotations_as_of: null };
  return [
    { ...base, step: 0 },
    { ...base, step: 1, response: { big: 1e21, small: 1.5e-7, max: Number.MAX_VALUE, text: "1e+5 is a number" } },
    { ...base, step: 2, prompt: [{ role: "user", content: "lone \ud800 surrogate" }], model: "m\udc00" },
    { ...base, step: 3, prompt: null, response: "a string", hacking_flags: ["x"], annotations_as_of: "2026-12-06T00:00:00.000Z" },
  ];
}

async function shardOf(rs: Record<string, unknown>[]): Promise<{ bytes: Buffer; hashes: string[] }> {
  const shard = new ShardFile("parquet", "transitions", `test-${Math.random()}`);
  const hashes = rs.map((r) => shard.add(r));
  return { bytes: await shard.bytes(), hashes };
}

describe("snapshot shards' Parquet (DuckDB)", () => {
  it("JSON cells are JSON.stringify of the value (a lone surrogate as U+FFFD), types are the form's, and the same rows give the same bytes", async () => {
    const input = rows();
    const [a, b] = [await shardOf(input), await shardOf(rows())];
    expect(sha256(a.bytes)).toBe(sha256(b.bytes));
    // a row's hash is of its JSON without annotations_as_of
    const { annotations_as_of: _asOf, ...rest } = input[3]!;
    expect(a.hashes[3]).toBe(sha256(JSON.stringify(rest)));
    const dir = mkdtempSync(path.join(tmpdir(), "baton-duck-test-"));
    const file = path.join(dir, "s.parquet");
    writeFileSync(file, a.bytes);
    const c = await (await DuckDBInstance.create(":memory:")).connect();
    const got = (await c.runAndReadAll(`SELECT step, model, prompt::VARCHAR AS prompt, response::VARCHAR AS response, prompt_token_ids::VARCHAR AS ids, hacking_flags::VARCHAR AS flags, annotations_as_of FROM '${file}'`)).getRowObjects();
    expect(got.map((r) => r.step)).toEqual([0, 1, 2, 3]);
    expect(got[0]!.prompt).toBe('[{"role":"user","content":"hi é 😀 \u2028"}]');
    expect(got[1]!.response).toBe('{"big":1e+21,"small":1.5e-7,"max":1.7976931348623157e+308,"text":"1e+5 is a number"}');
    expect(got[2]!.prompt).toBe('[{"role":"user","content":"lone \uFFFD surrogate"}]');
    expect(got[2]!.model).toBe("m\uFFFD");
    expect(got[3]).toMatchObject({ prompt: null, response: '"a string"', ids: "[1, 2]", flags: "[x]", annotations_as_of: "2026-12-06T00:00:00.000Z" });
    const described = (await c.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`)).getRows().map((r) => [r[0], r[1]]);
    const want = formColumns("transitions", input[0]).map((col) => [col.name, { string: "VARCHAR", json: "JSON", int32: "INTEGER", double: "DOUBLE", int32_list: "INTEGER[]", string_list: "VARCHAR[]" }[col.kind as string]]);
    expect(described).toEqual(want);
  });

  it("an empty shard is a valid file with the form's columns", async () => {
    const { bytes } = await shardOf([]);
    const dir = mkdtempSync(path.join(tmpdir(), "baton-duck-test-"));
    const file = path.join(dir, "e.parquet");
    writeFileSync(file, bytes);
    const c = await (await DuckDBInstance.create(":memory:")).connect();
    expect((await c.runAndReadAll(`SELECT count(*)::INT FROM '${file}'`)).getRows()).toEqual([[0]]);
    expect((await c.runAndReadAll(`DESCRIBE SELECT * FROM '${file}'`)).getRows().map((r) => r[0])).toEqual(formColumns("transitions").map((col) => col.name));
  });
});
