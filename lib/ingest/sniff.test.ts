import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SNIFF_BYTES, unsupportedInput } from "./sniff";
import { sharedDataAvailable } from "../../scripts/lib/shared-data.mjs";

const sniffFile = (file: string) => {
  const bytes = readFileSync(file);
  return unsupportedInput(path.basename(file), bytes.subarray(0, SNIFF_BYTES), bytes.length);
};
const SUPPORTED = "(supported: JSON or JSONL traces in Baton's schema, Who&When, MultiAgentBench, tau-bench, ChatDev logs, AgentOps or OpenTelemetry (OTLP/JSON))";

describe("unsupportedInput", () => {
  it("names an empty file, or one of whitespace only, as empty", () => {
    expect(unsupportedInput("a.json", new Uint8Array(0), 0)).toBe("empty file: it holds no traces");
    expect(unsupportedInput("a.jsonl", new TextEncoder().encode("\n \n\t"), 4)).toBe("empty file: it holds only whitespace, no traces");
  });

  it("names a CSV by its name or by its rows, and lists the formats that are supported", () => {
    expect(sniffFile("lib/ingest/fixtures/runs.csv")).toBe(`CSV is not a supported format ${SUPPORTED}`);
    const rows = readFileSync("lib/ingest/fixtures/runs.csv");
    expect(unsupportedInput("runs.json", rows, rows.length)).toBe(`CSV is not a supported format ${SUPPORTED}`);
    const tabs = new TextEncoder().encode("a\tb\n1\t2\n");
    expect(unsupportedInput("upload", tabs, tabs.length)).toContain("CSV is not a supported format");
  });

  it("names a binary file without echoing its bytes (a NUL byte, or bytes that are not UTF-8)", () => {
    const icon = sniffFile("app/favicon.ico");
    expect(icon).toBe(`binary file (not text): not a supported format ${SUPPORTED}`);
    const latin1 = Uint8Array.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]); // {"é"} in Latin-1
    expect(unsupportedInput("a.json", latin1, latin1.length)).toBe(`binary file (not UTF-8 text): not a supported format ${SUPPORTED}`);
  });

  it("lets through text that may be traces, a multi-byte character cut at the end of the head included", () => {
    const json = new TextEncoder().encode('{"trace_id": "x", "events": []}');
    expect(unsupportedInput("a.json", json, json.length)).toBeNull();
    const cut = new TextEncoder().encode(`["${"é".repeat(2)}`).subarray(0, 4); // [ " and the first byte of é
    expect(unsupportedInput("a.json", cut, 100)).toBeNull();
    // a JSONL file whose lines hold commas is JSON, not a table
    const lines = new TextEncoder().encode('{"a": 1, "b": 2}\n{"a": 3, "b": 4}\n');
    expect(unsupportedInput("a.jsonl", lines, lines.length)).toBeNull();
  });

  it.skipIf(!sharedDataAvailable())("passes every real file of ../shared/data", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const p = path.join(dir, entry);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(json|jsonl|log)$/.test(entry)) files.push(p);
      }
    };
    walk("../shared/data");
    expect(files.length).toBeGreaterThan(150);
    expect(files.filter((f) => sniffFile(f) !== null)).toEqual([]);
  });
});
