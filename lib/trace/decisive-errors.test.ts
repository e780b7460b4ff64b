import { describe, expect, it } from "vitest";
import { decisiveErrorProblems, decisiveEventOf } from "./decisive-errors";

const label = (event_id: string, annotator: string) => ({ event_id, agent: "a", annotator });

describe("decisiveEventOf", () => {
  it("is the adjudicated event whatever people say", () => {
    expect(decisiveEventOf([label("e1", "ann"), label("e1", "bob")], { event_id: "e9" })).toBe("e9");
  });
  it("is the event most people name; a tie goes to the event named first", () => {
    expect(decisiveEventOf([label("e2", "ann"), label("e5", "bob"), label("e5", "cy")], null)).toBe("e5");
    expect(decisiveEventOf([label("e2", "ann"), label("e5", "bob"), label("e5", "cy"), label("e2", "dee")], null)).toBe("e2");
    expect(decisiveEventOf([label("e7", "ann")], null)).toBe("e7");
  });
  it("is null when nobody named one", () => {
    expect(decisiveEventOf([], null)).toBeNull();
  });
});

describe("decisiveErrorProblems", () => {
  it("names the path of an unknown event and of a second label by one annotator", () => {
    const problems = decisiveErrorProblems(
      { decisive_errors: [{ ...label("e1", "ann"), reason: null }, { ...label("nope", "bob"), reason: null }, { ...label("e2", "ann"), reason: null }], decisive_error_adjudication: { event_id: "gone", agent: "a", reason: null, adjudicator: null } },
      new Set(["e1", "e2"]),
      "$[3]",
    );
    expect(problems.map((p) => p.path)).toEqual(["$[3].decisive_errors[1].event_id", "$[3].decisive_errors[2].annotator", "$[3].decisive_error_adjudication.event_id"]);
  });
});
