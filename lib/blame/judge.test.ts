import { describe, expect, it } from "vitest";
import { failedTool } from "./fixtures";
import { blameInput } from "./input";
import { allAtOncePrompt, decisiveStepPrompt, judgeRanking, onTrackPrompt, parseDecisive, parseOnTrack, parseStep, timeline } from "./judge";

describe("judge attribution prompts and replies", () => {
  const input = blameInput(failedTool());

  it("numbers the run's steps in event order, and the on-track question shows the run only up to step k", () => {
    const all = timeline(input);
    expect(all).toContain("[step 0]");
    const n = input.trace.events.length;
    expect(all).toContain(`[step ${n - 1}]`);
    expect(allAtOncePrompt(input)[1]!.content).toContain("Which step is the decisive error");
    const upTo1 = onTrackPrompt(input, 1)[1]!.content;
    expect(upTo1).toContain("[step 1]");
    expect(upTo1).not.toContain("[step 2]");
    expect(upTo1).toContain("after step 1?");
    const step2 = decisiveStepPrompt(input, 2)[1]!.content;
    expect(step2).toContain("[step 2]");
    expect(step2).not.toContain("[step 3]");
    expect(step2).toMatch(/Is step 2 the decisive error\?$/);
  });

  it("cuts long contents so that the timeline fits its budget", () => {
    const long = blameInput({ ...failedTool(), events: failedTool().events.map((e) => ({ ...e, content: "x".repeat(100_000) })) });
    expect(timeline(long, 1000).length).toBeLessThan(1000 * 4 + 2000);
    expect(timeline(long, 1000)).toContain("truncated");
  });

  it("parses exactly the asked JSON and refuses anything else", () => {
    expect(parseStep('{"step": 2, "reason": "wrong file"}', 5)).toEqual({ ok: true, value: 2, reason: "wrong file" });
    expect(parseStep('```json\n{"step": 0}\n```', 5)).toMatchObject({ ok: true, value: 0 });
    expect(parseStep('{"step": 5}', 5)).toMatchObject({ ok: false });
    expect(parseStep('{"step": 1.5}', 5)).toMatchObject({ ok: false });
    expect(parseStep('{"step": "2"}', 5)).toMatchObject({ ok: false });
    expect(parseStep("Step 2 is where it went wrong.", 5)).toMatchObject({ ok: false, error: "the reply is not a JSON object" });
    expect(parseOnTrack('{"on_track": false, "reason": "lost"}')).toEqual({ ok: true, value: false, reason: "lost" });
    expect(parseOnTrack('{"on_track": "no"}')).toMatchObject({ ok: false });
    expect(parseDecisive('{"decisive": true, "reason": "divides by zero"}')).toEqual({ ok: true, value: true, reason: "divides by zero" });
    expect(parseDecisive('{"decisive": "yes"}')).toMatchObject({ ok: false, error: "`decisive` is not true or false" });
    expect(parseDecisive("yes")).toMatchObject({ ok: false, error: "the reply is not a JSON object" });
  });

  it("ranks the judge's step first and every other event tied behind it", () => {
    const ranking = judgeRanking("judge:j:all_at_once", input, 1, "because");
    const ids = [...input.trace.events].sort((a, b) => a.t - b.t).map((e) => e.id);
    expect(ranking.events[0]).toMatchObject({ id: ids[1], rank: 1, signals: { judge_named: 1 } });
    expect(ranking.events.slice(1).every((e) => e.rank === 2)).toBe(true);
    expect(ranking.agents[0]!.agent).toBe(ranking.events[0]!.agent);
  });
});
