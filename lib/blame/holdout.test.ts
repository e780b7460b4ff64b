import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HOLDOUT_FILES, HOLDOUT_SIZE, HOLDOUT_TRACE_IDS } from "./holdout";

describe("the Who&When hold-out", () => {
  it("is the rule applied to the Algorithm-Generated files", () => {
    const files = readdirSync("../shared/data/who_and_when/Algorithm-Generated").filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(80);
    const hash = (f: string) => createHash("sha256").update(`Algorithm-Generated/${f}`).digest("hex");
    const lowest = [...files].sort((a, b) => (hash(a) < hash(b) ? -1 : 1)).slice(0, HOLDOUT_SIZE).map((f) => parseInt(f, 10));
    expect([...lowest].sort((a, b) => a - b)).toEqual(HOLDOUT_FILES);
    expect(HOLDOUT_TRACE_IDS.has("whowhen-algorithm-generated-1")).toBe(true);
    expect(HOLDOUT_TRACE_IDS.has("whowhen-algorithm-generated-2")).toBe(false);
  });
});
