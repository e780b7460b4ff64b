import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collect, data } from "./fixtures";
import { adapt, AdapterInputError, detectPath, type SourceFormat } from "./index";

const SAMPLES: Record<SourceFormat, string> = {
  whowhen: data("who_and_when/Hand-Crafted/1.json"),
  marble: data("multiagentbench_marble/coding_output.jsonl"),
  taubench: data("tau_bench/gpt-4o-airline.json"),
  chatdev: data("chatdev_warehouse/Maze_THUNLP_20231006154305"),
  agentops: data("agentops_crewai_ibm/agent_ops_traces.json"),
  // no OTLP dataset in shared/data: a small export written for the OTLP adapter's tests
  otlp: "lib/adapters/samples/otlp-orchestrator.json",
};

async function failure(format: SourceFormat, input: Parameters<typeof adapt>[1]): Promise<AdapterInputError> {
  try {
    await collect(format, input);
  } catch (error) {
    if (error instanceof AdapterInputError) return error;
    throw error;
  }
  throw new Error(`${format} accepted the input`);
}

describe("adapt", () => {
  it("detects each sample's format by content, a ChatDev run folder included", async () => {
    for (const [format, path] of Object.entries(SAMPLES)) expect(await detectPath(path)).toBe(format);
    expect(await detectPath(data("chatdev_warehouse"))).toBeNull();
  });

  it("names the expected format (and the one the file looks like) when a file is not that format", async () => {
    const wrong = await failure("whowhen", SAMPLES.taubench);
    expect(wrong.format).toBe("whowhen");
    expect(wrong.message).toBe(
      `${SAMPLES.taubench} is not a Who&When run (.json with history, mistake_agent, mistake_step): it looks like a tau-bench trajectory file (.json array of {task_id, reward, info, traj, trial})`,
    );
    for (const format of Object.keys(SAMPLES) as SourceFormat[]) {
      const other = format === "agentops" ? SAMPLES.whowhen : SAMPLES.agentops;
      const error = await failure(format, other);
      expect(error.format).toBe(format);
      expect(error.message).toMatch(/ is not (a|an) /);
    }
  });

  it("reports the schema problem when the content matches no format", async () => {
    const error = await failure("taubench", { path: "runs.json", content: '[{"task_id": 1, "traj": []}]' });
    expect(error.message).toContain("runs.json is not a tau-bench trajectory file");
    expect(error.details).toEqual(expect.arrayContaining(["$[0].reward: Invalid input: expected number, received undefined"]));
    expect((await failure("whowhen", { path: "w.json", content: "{broken" })).message).toMatch(/malformed JSON/);
    expect((await failure("marble", { path: "m.jsonl", content: '{"task": "t", "iterations": []}\n{oops' })).details).toEqual(["$[1]: malformed JSON on line 2"]);
    expect((await failure("chatdev", { path: "x.log", content: "no timestamps here" })).message).toMatch(/x\.log is not a ChatDev run folder or log/);
  });

  it("streams MARBLE JSON lines one run at a time", async () => {
    const seen: string[] = [];
    for await (const trace of adapt("marble", data("multiagentbench_marble/chain_research_gpt3.5.jsonl"))) {
      seen.push(trace.trace_id);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["marble-chain-research-gpt3.5-0", "marble-chain-research-gpt3.5-1", "marble-chain-research-gpt3.5-2"]);
  });

  it("adapts in-memory content the same as the file", async () => {
    const path = SAMPLES.whowhen;
    const [fromFile] = await collect("whowhen", path);
    const [fromContent] = await collect("whowhen", { path, content: readFileSync(path, "utf8") });
    expect(fromContent).toEqual(fromFile);
  });
});
