import { beforeAll, describe, expect, it } from "vitest";
import { collect, filesIn } from "../adapters/fixtures";
import { validateTrace } from "../trace/validate";
import type { Trace } from "../trace/types";
import { blameInput } from "./input";
import { METHODS } from "./registry";
import { BlameNotApplicableError } from "./types";

/** The 138 Who&When runs as Baton stores them: the adapter puts each run's answer into the trace. */
let traces: Trace[] = [];

beforeAll(async () => {
  const files = [...filesIn("who_and_when/Hand-Crafted"), ...filesIn("who_and_when/Algorithm-Generated")];
  const adapted = (await Promise.all(files.map((f) => collect("whowhen", f)))).flat();
  traces = adapted.map((a) => {
    const result = validateTrace(a);
    if (!result.ok) throw new Error(result.problems[0]!.message);
    return result.trace;
  });
});

describe("attribution input of the real Who&When runs", () => {
  it("carries none of the answers the adapter wrote", () => {
    expect(traces).toHaveLength(138);
    for (const trace of traces) {
      const truth = (trace.metadata as { ground_truth: { mistake_reason: string } }).ground_truth;
      expect(trace.events.some((e) => e.extra?.mistake === true)).toBe(true);
      const text = JSON.stringify(blameInput(trace));
      for (const key of ['"ground_truth"', '"mistake_agent"', '"mistake_reason"', '"mistake_step"', '"mistake":']) expect(text).not.toContain(key);
      if (truth.mistake_reason.length > 40) expect(text).not.toContain(JSON.stringify(truth.mistake_reason).slice(1, -1));
    }
  });

  it("ranks every run the same whether or not the adapter's labels were ever there", () => {
    for (const trace of traces.slice(0, 138).filter((_, i) => i % 10 === 0)) {
      const unlabelled: Trace = { ...trace, metadata: undefined, events: trace.events.map(({ extra: _extra, ...e }) => e) };
      for (const m of METHODS) {
        if (m.learned) continue;
        const rank = (t: Trace) => {
          try {
            return m.rank(blameInput(t));
          } catch (e) {
            if (e instanceof BlameNotApplicableError) return null;
            throw e;
          }
        };
        expect(rank(trace), m.name).toEqual(rank(unlabelled));
      }
    }
  });
});
