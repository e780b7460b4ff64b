import { describe, expect, it } from "vitest";
import { makeTrace, type TraceSpec } from "../graph/fixtures";
import { answerOrigin, answerTokens, rankAnswerOrigin } from "./answer";
import { eventFeatures } from "./features";
import { WRONG_PAGE } from "./fixtures";
import { blameInput } from "./input";
import { methodByName } from "./registry";
import type { BlameRanking } from "./types";

const top = (r: BlameRanking) => r.events.filter((e) => e.rank === 1).map((e) => e.id);

const run = (spec: TraceSpec = WRONG_PAGE) => blameInput(makeTrace(spec));
const withContent = (id: string, content: string, base: TraceSpec = WRONG_PAGE): TraceSpec => ({ ...base, events: base.events.map((e) => (e.id === id ? { ...e, content } : e)) });

describe("answer_origin", () => {
  it("finds the stated answer, the words the task did not hold, and the first event that wrote them", () => {
    const a = answerOrigin(run());
    expect(a.stated).toBe(5);
    // "1968" and "december" are new; "the" is a stop word, "year" was in the task
    expect([...a.words].sort()).toEqual(["1968", "december"]);
    expect(a.carries).toEqual([0, 0, 0, 1, 1, 1]);
    expect(a.origin).toBe(3);
  });

  it("ranks the first writer of the answer first, then the steps before it, halving with each step back", () => {
    const r = rankAnswerOrigin(run());
    expect(top(r)).toEqual(["read2"]);
    expect(r.events.map((e) => [e.id, e.score])).toEqual([
      ["read2", 1],
      ["search", 0.5],
      ["plan", 0.25],
      ["check", 0],
      ["final", 0],
      ["task", -1],
    ]);
    expect(r.events[0]!.signals).toEqual({ answer_origin: 1, answer_carrier: 1 });
    expect(r.agents[0]!.agent).toBe("WebSurfer");
    expect(methodByName("answer_origin")?.learned).toBe(false);
  });

  it("half of the answer's words are enough; fewer are not (a near miss that mentions only 'December')", () => {
    const spec = withContent("final", "FINAL ANSWER: 1968, December, Borman\nTERMINATE");
    // three new words: two are needed; read2 holds 1968 and December, check holds both as well
    expect(answerOrigin(run(spec)).origin).toBe(3);
    const earlier = withContent("search", "I typed 'Apollo 8 crew orbit Moon December' into the search bar.", spec);
    expect(answerOrigin(run(earlier)).origin).toBe(3); // one of three words: not a carrier
  });

  it("a run that states no answer, or whose answer only repeats the task, blames nothing: every step ties", () => {
    for (const spec of [withContent("final", "TERMINATE"), withContent("final", "FINAL ANSWER: Apollo 8 crew orbit Moon")]) {
      const a = answerOrigin(run(spec));
      expect(a.origin).toBe(-1);
      const r = rankAnswerOrigin(run(spec));
      expect(new Set(r.events.filter((e) => e.id !== "task").map((e) => e.rank))).toEqual(new Set([1]));
    }
  });

  it("the last stated answer counts (a run may state one, then correct it)", () => {
    const spec = withContent("check", "FINAL ANSWER: 1969\nWait, WebSurfer found December 1968.");
    expect(answerOrigin(run(spec)).stated).toBe(5);
    expect(answerOrigin(run(spec)).origin).toBe(3);
  });

  it("reaches the learned models as features: the origin, the step before it, the carriers and the statement", () => {
    const f = eventFeatures(run());
    expect(f.map((x) => x.named.answer_origin)).toEqual([0, 0, 0, 1, 0, 0]);
    expect(f.map((x) => x.named.answer_before_origin)).toEqual([0, 0, 1, 0, 0, 0]);
    expect(f.map((x) => x.named.answer_carrier)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(f.map((x) => x.named.answer_stated)).toEqual([0, 0, 0, 0, 0, 1]);
  });

  it("tokens: words of three letters or more and numbers with their separators, lower-cased", () => {
    expect([...answerTokens("FINAL ANSWER: 1,024 km/h by Mr. O'Neil in 3.14 s; ok")]).toEqual(["1,024", "o'neil", "3.14"]);
  });
});
