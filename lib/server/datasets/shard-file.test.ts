import { describe, expect, it } from "vitest";
import { sha256 } from "@/lib/datasets/layout";
import { ShardFile } from "./shard-file";

/** What a row's hash is of: its JSON without `annotations_as_of` (computed here the plain way). */
const hashedText = (row: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([k]) => k !== "annotations_as_of")));

describe("a snapshot shard's rows", () => {
  it("each row is its JSON.stringify line, hashed without annotations_as_of, wherever that key is and whatever it holds", async () => {
    const base = { traj_uid: "t", call_id: "c", prompt: [{ role: "user", content: "say \"annotations_as_of\":null}" }], reward: 0.1 };
    const rows: Record<string, unknown>[] = [
      { ...base, annotations_as_of: null },
      { ...base, annotations_as_of: "2026-12-06T00:00:00.000Z" },
      { ...base, annotations_as_of: "quote \" and \\ and \u2028" },
      // not the last key, no key, undefined, not a string
      { annotations_as_of: "2026-12-06T00:00:00.000Z", ...base },
      { ...base },
      { ...base, annotations_as_of: undefined },
      { ...base, annotations_as_of: 3 },
      // the last key an object ending with one of its own, or a string that looks so
      { ...base, annotations_as_of: null, extra: { annotations_as_of: null } },
      { annotations_as_of: null, ...base, extra: { a: 1, annotations_as_of: null } },
      { ...base, extra: ',"annotations_as_of":null}' },
      // the only key
      { annotations_as_of: null },
    ];
    for (const format of ["jsonl", "parquet"] as const) {
      const shard = new ShardFile(format, "transitions", `test-${format}-${Math.random()}`);
      expect(rows.map((r) => shard.add(r))).toEqual(rows.map((r) => sha256(hashedText(r))));
      const bytes = await shard.bytes();
      if (format === "jsonl") expect(bytes.toString("utf8")).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
    }
  });
});
