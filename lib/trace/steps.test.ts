import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { collect, filesIn } from "../adapters/fixtures";
import type { AdaptedTrace } from "../adapters/types";
import { runGuided } from "../blame/guided";
import { askedEvents, datasetStep, stepNumber } from "./steps";

const files = [...filesIn("who_and_when/Hand-Crafted"), ...filesIn("who_and_when/Algorithm-Generated")];
let runs: { file: string; trace: AdaptedTrace; history: number }[] = [];

beforeAll(async () => {
  runs = await Promise.all(files.map(async (file) => ({ file, trace: (await collect("whowhen", file))[0]!, history: (JSON.parse(readFileSync(file, "utf8")) as { history: unknown[] }).history.length })));
});

describe("steps as a person reads them", () => {
  it("are the dataset's own, else event order from 1", () => {
    expect(stepNumber(9, 8)).toBe(8);
    expect(stepNumber(9, null)).toBe(10);
    expect(datasetStep({ step: 3 })).toBe(3);
    expect([datasetStep({ step: "3" }), datasetStep({ step: 1.5 }), datasetStep(null), datasetStep({})]).toEqual([null, null, null, null]);
    expect(askedEvents([null, null, null])).toEqual([0, 1, 2]);
    // a step that became two events is asked about once, at its last event
    expect(askedEvents([0, 1, 1, 2])).toEqual([0, 2, 3]);
  });

  it("on the 138 Who&When runs: one question per history step, the labelled step at its mistake event, within ceil(log2 steps) + 1 answers, never twice in a row", () => {
    expect(runs).toHaveLength(138);
    for (const { file, trace, history } of runs) {
      const truth = trace.metadata!.ground_truth as { mistake_step: number; mistake_event_id: string };
      const steps = trace.events.map((e) => datasetStep(e));
      const asked = askedEvents(steps);
      expect(asked.map((i) => steps[i]), file).toEqual(Array.from({ length: history }, (_, k) => k));
      const mistake = trace.events.findIndex((e) => e.id === truth.mistake_event_id);
      expect(stepNumber(mistake, steps[mistake]), file).toBe(truth.mistake_step);
      expect(asked[truth.mistake_step], file).toBe(mistake);

      const result = runGuided(asked.map((i) => trace.events[i]!.id), null, (k) => k < truth.mistake_step);
      expect(result.decisive_event_id, file).toBe(truth.mistake_event_id);
      expect(result.answers.length, file).toBeLessThanOrEqual(history === 1 ? 0 : Math.ceil(Math.log2(history)) + 1);
      result.answers.forEach((a, i) => expect(a.k, file).not.toBe(result.answers[i - 1]?.k));
    }
  });
});
