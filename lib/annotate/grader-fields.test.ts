import { describe, expect, it } from "vitest";
import { fieldLines, graderFieldsInput, graderFieldValues, parseFieldLines, storedGraderFields } from "./grader-fields";

describe("grader fields", () => {
  const metadata = { labels: { level: 2, is_correct: false, tags: ["airline", "refund"], detail: { a: 1 } }, split: "test" };

  it("reads each field from the run's metadata as text, with its source; a missing one is null", () => {
    expect(graderFieldValues(metadata, [{ path: "labels.level", label: "Level" }, { path: "split" }, { path: "labels.is_correct" }, { path: "labels.tags" }, { path: "labels.detail" }, { path: "labels.none" }])).toEqual([
      { label: "Level", source: "metadata.labels.level", text: "2" },
      { label: "split", source: "metadata.split", text: "test" },
      { label: "labels.is_correct", source: "metadata.labels.is_correct", text: "false" },
      { label: "labels.tags", source: "metadata.labels.tags", text: "airline\nrefund" },
      { label: "labels.detail", source: "metadata.labels.detail", text: '{"a":1}' },
      { label: "labels.none", source: "metadata.labels.none", text: null },
    ]);
    expect(graderFieldValues(null, [{ path: "a" }])).toEqual([{ label: "a", source: "metadata.a", text: null }]);
    // inherited keys name nothing
    expect(graderFieldValues(metadata, [{ path: "constructor" }, { path: "__proto__" }, { path: "labels.toString" }]).map((v) => v.text)).toEqual([null, null, null]);
  });

  it("takes the form's lines and gives them back", () => {
    const fields = parseFieldLines(" Level = labels.level \n\nsplit\n");
    expect(fields).toEqual([{ label: "Level", path: "labels.level" }, { path: "split" }]);
    expect(fieldLines(fields)).toBe("Level = labels.level\nsplit");
  });

  it("refuses paths that are not dot paths, duplicates and more than 20, with the item's path", () => {
    const bad = graderFieldsInput.safeParse({ fields: [{ path: "labels..x" }, { path: "a b" }, { path: "__proto__.x" }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join("."))).toEqual(["fields.0.path", "fields.1.path"]);
    expect(graderFieldsInput.safeParse({ fields: [{ path: "a" }, { path: "a" }] }).success).toBe(false);
    expect(graderFieldsInput.safeParse({ fields: Array.from({ length: 21 }, (_, i) => ({ path: `f${i}` })) }).success).toBe(false);
    expect(storedGraderFields("junk")).toEqual([]);
    expect(storedGraderFields([{ path: "a", label: "A" }])).toEqual([{ path: "a", label: "A" }]);
  });
});
