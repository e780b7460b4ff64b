import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { computeE1 } from "../metrics/e1";
import { NO_LABELS } from "../rewards/labels";
import { collect, countBy, data, edgeTypes, eventTypes, expectValid, filesIn } from "./fixtures";
import type { AdaptedTrace } from "./types";

interface GroundTruth {
  mistake_agent: string;
  mistake_step: number;
  mistake_event_id: string;
  mistake_reason: string;
  step_speaker: string;
  step_addressee: string | null;
  label_matches_speaker: boolean;
  label_matches_addressee: boolean;
}

const files = [...filesIn("who_and_when/Hand-Crafted"), ...filesIn("who_and_when/Algorithm-Generated")];
let traces: AdaptedTrace[] = [];
const truth = (t: AdaptedTrace) => t.metadata!.ground_truth as GroundTruth;
const byFile = (relative: string) => traces.find((t) => (t.metadata!.source as { file: string }).file === relative)!;

beforeAll(async () => {
  traces = (await Promise.all(files.map((f) => collect("whowhen", f)))).flat();
});

describe("Who&When adapter on the 138 real runs", () => {
  it("turns every run into one valid trace, without warnings", () => {
    expect(files).toHaveLength(138);
    expect(traces).toHaveLength(138);
    for (const t of traces) expect(expectValid(t)).toEqual([]);
    expect(countBy(traces, (t) => t.system!)).toEqual({ "Magentic-One": 58, "CaptainAgent (AG2)": 80 });
    // no file holds the prompts its models were sent (docs/adapters.md): no model calls
    expect(traces.filter((t) => t.calls !== undefined)).toEqual([]);
  });

  it("finds the labelled step spoken by the labelled agent in 133 runs and lists the 5 others", () => {
    const speaker = traces.filter((t) => truth(t).label_matches_speaker);
    const addressee = traces.filter((t) => !truth(t).label_matches_speaker && truth(t).label_matches_addressee);
    const noise = traces.filter((t) => !truth(t).label_matches_speaker && !truth(t).label_matches_addressee);
    // 132 steps spoken by the labelled agent, plus one orchestrator instruction addressed to it (Hand-Crafted/20)
    expect(speaker.length + addressee.length).toBe(133);
    expect(speaker).toHaveLength(132);
    expect(addressee.map((t) => t.trace_id)).toEqual(["whowhen-hand-crafted-20"]);
    expect(noise.map((t) => `${t.trace_id}: ${truth(t).mistake_agent} vs ${truth(t).step_speaker}`).sort()).toEqual([
      "whowhen-algorithm-generated-14: Culinary_Awards_Expert vs Computer_terminal",
      "whowhen-algorithm-generated-15: Boggle_Board_Expert vs Verification_Expert",
      "whowhen-algorithm-generated-59: DataExtraction_Expert vs Computer_terminal",
      "whowhen-hand-crafted-22: FileSurfer vs WebSurfer",
      "whowhen-hand-crafted-49: WebSurfer vs Assistant",
    ]);
  });

  it("compares agent names case-insensitively (Websurfer and WebSurfer are one agent)", () => {
    const lowerCase = traces.filter((t) => truth(t).mistake_agent === "Websurfer");
    expect(lowerCase).toHaveLength(2);
    for (const t of lowerCase) expect(truth(t).label_matches_speaker).toBe(true);
  });

  it("marks exactly one event as the mistake, at the labelled step", () => {
    for (const t of traces) {
      const marked = t.events.filter((e) => e.mistake === true);
      expect(marked).toHaveLength(1);
      expect(marked[0]!.id).toBe(truth(t).mistake_event_id);
      expect(marked[0]!.step).toBe(truth(t).mistake_step);
    }
  });

  it("writes each run's labelled mistake as its decisive error, under the dataset's annotator", () => {
    expect(traces).toHaveLength(138);
    for (const t of traces) {
      expect(t.decisive_errors).toEqual([{ event_id: truth(t).mistake_event_id, agent: truth(t).mistake_agent.trim(), reason: truth(t).mistake_reason, annotator: "Who&When ground truth" }]);
    }
    // the one file read by hand: Hand-Crafted/1.json blames its step 12 on WebSurfer
    const one = byFile("who_and_when/Hand-Crafted/1.json");
    const raw = JSON.parse(readFileSync(data("who_and_when/Hand-Crafted/1.json"), "utf8")) as { mistake_agent: string; mistake_step: string };
    const event = one.events.find((e) => e.id === one.decisive_errors![0]!.event_id)!;
    expect(event.step).toBe(Number(raw.mistake_step));
    expect(one.decisive_errors![0]!.agent).toBe(raw.mistake_agent);
  });

  it("keeps the dataset's labels verbatim", () => {
    const raw = JSON.parse(readFileSync(data("who_and_when/Hand-Crafted/1.json"), "utf8")) as Record<string, unknown>;
    const labels = byFile("who_and_when/Hand-Crafted/1.json").metadata!.labels as Record<string, unknown>;
    for (const key of ["question", "ground_truth", "mistake_agent", "mistake_step", "mistake_reason"]) expect(labels[key]).toEqual(raw[key]);
  });

  it("reports failure: E1 is 0 for every run", () => {
    for (const t of traces) expect(computeE1(t, NO_LABELS)).toBe(0);
  });

  it("maps a Magentic-One run: thoughts, one spawn per worker, messages, returns", () => {
    // Hand-Crafted/1: 1 human, 14 thoughts, 7 x (-> WebSurfer), 7 WebSurfer replies
    const t = byFile("who_and_when/Hand-Crafted/1.json");
    expect(eventTypes(t)).toEqual({ message: 8, orchestrator_decision: 14, spawn: 1, return: 7 });
    expect(t.events.filter((e) => e.type === "spawn").map((e) => e.to)).toEqual(["WebSurfer"]);
    expect(t.topology).toBe("centralized");
    expect(t.costs).toEqual({ tokens: 0, wall_clock_s: 0, tool_calls: 0, messages: 8 });
    expect(t.metadata!.clock).toBe("step_index");
  });

  it("maps a Magentic-One ending: FINAL ANSWER -> aggregate, termination -> stop", () => {
    // Hand-Crafted/58: 56 thoughts + the termination condition; 4 workers addressed
    const t = byFile("who_and_when/Hand-Crafted/58.json");
    const types = eventTypes(t);
    expect(types.orchestrator_decision).toBe(57);
    expect(types.spawn).toBe(4);
    expect(types.message).toBe(25);
    expect(types.aggregate).toBe(1);
    expect((types.return ?? 0) + (types.tool_result ?? 0)).toBe(24);
    const stop = t.events.find((e) => e.decision === "stop")!;
    expect(stop.reason).toBe("complete");
    expect(t.events.at(-1)).toBe(stop);
  });

  it("maps a CaptainAgent group chat: code turns -> tool_call, executor output -> tool_result, TERMINATE -> aggregate", () => {
    const t = byFile("who_and_when/Algorithm-Generated/1.json");
    expect(t.events.map((e) => `${e.type}:${e.agent}`)).toEqual([
      "tool_call:Excel_Expert",
      "tool_result:Computer_terminal",
      "tool_call:BusinessLogic_Expert",
      "tool_result:Computer_terminal",
      "message:DataVerification_Expert",
      "aggregate:DataVerification_Expert",
    ]);
    expect(edgeTypes(t)).toEqual({ return: 2, causal: 2, aggregate: 1, temporal: 1 });
    expect(t.topology).toBe("mixed");
    expect(t.metadata!.topology_detail).toBe("group_chat");
  });

  it("counts the whole dataset's events by type", () => {
    const all = countBy(traces.flatMap((t) => t.events), (e) => e.type);
    // 1563 thoughts + 31 termination conditions; 92 distinct (run, worker) pairs spawned
    expect(all.orchestrator_decision).toBe(1594);
    expect(all.spawn).toBe(92);
    expect(all.tool_call).toBe(144);
    expect(all.tool_result).toBe(149);
    expect(Object.values(all).reduce((a, b) => a + b, 0)).toBe(3803);
  });

  it("records provenance: dataset, path in the data folder, repository and commit", () => {
    expect(byFile("who_and_when/Algorithm-Generated/7.json").metadata!.source).toEqual({
      dataset: "Who&When",
      file: "who_and_when/Algorithm-Generated/7.json",
      repo: "mingyin1/Agents_Failure_Attribution",
      commit: "3d9d568840f004b389638f97adf3e0ab8b5a9514",
      original_path: "Who&When/Algorithm-Generated/7.json",
      license: "MIT",
      adapter: "whowhen",
    });
  });
});

describe("Who&When trace ids: one id per file, whatever the door", () => {
  const idOf = (relative: string) => traces[files.indexOf(data(`who_and_when/${relative}`))]!.trace_id;
  it("names a run by its subset (read from the content) and file, the same from a path and from an upload's bare name", async () => {
    for (const file of [data("who_and_when/Hand-Crafted/46.json"), data("who_and_when/Algorithm-Generated/46.json")]) {
      const [fromPath] = await collect("whowhen", file);
      // upload and POST /api/import pass only the file's name with its text
      const [fromUpload] = await collect("whowhen", { path: file.split("/").at(-1)!, content: readFileSync(file, "utf8") });
      expect(fromUpload!.trace_id).toBe(fromPath!.trace_id);
    }
    expect(idOf("Hand-Crafted/46.json")).toBe("whowhen-hand-crafted-46");
    expect(idOf("Algorithm-Generated/11.json")).toBe("whowhen-algorithm-generated-11");
    expect(idOf("Hand-Crafted/11.json")).toBe("whowhen-hand-crafted-11");
  });

  it("gives the 138 runs 138 distinct ids (58 Hand-Crafted, 80 Algorithm-Generated)", () => {
    const ids = traces.map((t) => t.trace_id);
    expect(new Set(ids).size).toBe(138);
    expect(ids.filter((id) => id.startsWith("whowhen-hand-crafted-"))).toHaveLength(58);
    expect(ids.filter((id) => id.startsWith("whowhen-algorithm-generated-"))).toHaveLength(80);
  });
});
