import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectFormat, FIRST_BYTES } from "./detect";
import { DATA, countBy } from "./fixtures";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = `${dir}/${name}`;
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const head = (p: string) => readFileSync(p).subarray(0, FIRST_BYTES).toString("utf8");

describe("detectFormat", () => {
  it("recognises every file of the real datasets by content", () => {
    const found = countBy(walk(DATA), (p) => `${p.slice(DATA.length + 1).split("/")[0]} ${String(detectFormat(p, head(p)))}`);
    expect(found).toEqual({
      "README.md null": 1,
      "agentops_crewai_ibm agentops": 1,
      // the 12 run logs; the runs' config .json files and meta.txt are no trace format
      "chatdev_warehouse chatdev": 12,
      "chatdev_warehouse null": 45,
      "multiagentbench_marble marble": 7,
      "tau_bench taubench": 1,
      "who_and_when whowhen": 138,
    });
  });

  it("recognises Baton's own traces, one or an array or JSON lines", () => {
    const example = readFileSync("../shared/trace-schema/example_trace.json", "utf8");
    expect(detectFormat("t.json", example)).toBe("baton");
    expect(detectFormat("t.json", `[${example}]`)).toBe("baton");
    expect(detectFormat("t.jsonl", JSON.stringify(JSON.parse(example)))).toBe("baton");
  });

  it("does not go by the name alone", () => {
    const tau = head(`${DATA}/tau_bench/gpt-4o-airline.json`);
    expect(detectFormat("chain_research.jsonl", tau)).toBe("taubench");
    expect(detectFormat("run.log", tau)).toBe("taubench");
    expect(detectFormat("who_and_when/1.json", '{"anything": 1}')).toBeNull();
    expect(detectFormat("x.json", "not json at all")).toBeNull();
  });

  it("ignores keys inside escaped JSON strings", () => {
    expect(detectFormat("x.json", '{"note": "{\\"trace_id\\": 1, \\"events\\": []}"}')).toBeNull();
  });
});
