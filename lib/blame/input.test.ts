import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { failedTool, withLabels } from "./fixtures";
import { blameInput, stripTrace } from "./input";
import { METHODS } from "./registry";
import { BlameNotApplicableError, type LabelledTrace } from "./types";

describe("the input of every method carries no label", () => {
  it("drops the trace's metadata and the events' extra properties", () => {
    const labelled = withLabels(failedTool(), "code1", "coder");
    const stripped = stripTrace(labelled);
    expect(stripped.metadata).toBeUndefined();
    expect(stripped.events.every((e) => e.extra === undefined)).toBe(true);
    expect(JSON.stringify(stripped)).not.toContain("mistake");
    expect(labelled.events.find((e) => e.id === "code1")!.extra).toBeDefined(); // the caller's trace is untouched
  });

  it("drops the labels an adapter writes beside the trace (the extended form's decisive errors and annotations)", () => {
    const adapted = { ...failedTool(), decisive_errors: [{ event_id: "code1", agent: "coder", reason: "the mistake", annotator: "truth" }], annotations: [{ event_id: "code1", family: "step_quality", value: -1 }] };
    const stripped = stripTrace(adapted);
    expect(Object.keys(stripped)).not.toContain("decisive_errors");
    expect(Object.keys(stripped)).not.toContain("annotations");
    expect(JSON.stringify(stripped)).not.toContain("the mistake");
  });

  it("gives every heuristic method the same ranking with and without the labels", () => {
    const plain = blameInput(failedTool());
    const labelled = blameInput(withLabels(failedTool(), "code1", "coder"));
    for (const m of METHODS) {
      if (m.learned) continue;
      const rank = (input: typeof plain) => {
        try {
          return m.rank(input);
        } catch (e) {
          if (e instanceof BlameNotApplicableError) return null;
          throw e;
        }
      };
      expect(rank(labelled), m.name).toEqual(rank(plain));
    }
  });

  it("gives every learned method the same ranking with and without labels in any trace's metadata", () => {
    fc.assert(
      fc.property(fc.constantFrom("plan", "code1", "out1", "code2", "answer"), fc.constantFrom("planner", "coder", "writer"), (id, agent) => {
        const examples: LabelledTrace[] = [{ input: blameInput(failedTool()), decisive_event_id: id, decisive_agent: agent }];
        const plain = blameInput(failedTool());
        const labelled = blameInput(withLabels(failedTool(), id === "code1" ? "answer" : "code1", "writer"));
        for (const m of METHODS) {
          if (!m.learned) continue;
          const model = m.train(examples);
          expect(m.rank(model, labelled), m.name).toEqual(m.rank(model, plain));
        }
      }),
      { numRuns: 15 },
    );
  });
});
