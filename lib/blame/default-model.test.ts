import { beforeAll, describe, expect, it } from "vitest";
import { loadWhoAndWhen, WHO_AND_WHEN_SUBSETS } from "@/scripts/lib/who-and-when";
import { makeTrace } from "../graph/fixtures";
import { DEFAULT_MODEL, rankWithDefaultModel } from "./default-model";
import { FAILED_TOOL, failedTool, withLabels } from "./fixtures";
import { blameInput } from "./input";
import { LEARNED_GRID } from "./tuned";
import type { LabelledTrace } from "./types";

/** The runs `npm run blame:train-default` trains on, in its order. */
let labelled: LabelledTrace[] = [];

beforeAll(async () => {
  labelled = (await Promise.all(WHO_AND_WHEN_SUBSETS.map((s) => loadWhoAndWhen(s)))).flat();
}, 120_000);

describe("the attribution model shipped with Baton", () => {
  it("is what the training script produces: the kept candidate retrained on the 138 Who&When runs gives the committed weights", () => {
    expect(labelled).toHaveLength(138);
    expect(DEFAULT_MODEL).toMatchObject({ version: 1, traces: 138 });
    const candidate = LEARNED_GRID.find((c) => c.name === DEFAULT_MODEL.chosen);
    expect(candidate, DEFAULT_MODEL.chosen).toBeDefined();
    expect(JSON.parse(JSON.stringify(candidate!.train(labelled)))).toEqual(DEFAULT_MODEL.model);
  }, 120_000);

  it("ranks a hand-built failed run sensibly: the code turn whose run failed above the task, the retry and the answer", () => {
    const ranking = rankWithDefaultModel(blameInput(failedTool()));
    const rankOf = (id: string) => ranking.events.find((e) => e.id === id)!.rank;
    expect(ranking.events).toHaveLength(FAILED_TOOL.events.length);
    expect(rankOf("code1")).toBeLessThan(rankOf("task"));
    expect(rankOf("code1")).toBeLessThan(rankOf("code2"));
    expect(rankOf("code1")).toBeLessThan(rankOf("answer"));
    // people are never the decisive agent's first suspect
    expect(ranking.agents[0]!.agent).not.toBe("human");
  });

  it("reads no label: the same ranking with the adapter's answer in the trace or not", () => {
    const trace = makeTrace(FAILED_TOOL);
    expect(rankWithDefaultModel(blameInput(withLabels(trace, "answer", "writer")))).toEqual(rankWithDefaultModel(blameInput(trace)));
  });
});
