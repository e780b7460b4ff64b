import { describe, expect, it } from "vitest";
import { placeOf, reciprocalRank, scoreRankings, topK } from "./scores";
import type { BlameRanking } from "./types";

const ranking = (events: [string, number][], agents: [string, number][]): BlameRanking => ({
  method: "m",
  events: events.map(([id, rank]) => ({ id, agent: "a", rank, score: 0, signals: {} })),
  agents: agents.map(([agent, rank]) => ({ agent, rank, score: 0 })),
});

describe("scores of one trace (SPEC.md section 10)", () => {
  it("counts a k-way tie at rank 1 as 1/k, and 0 when the answer is outside it", () => {
    expect(topK({ rank: 1, tied: 1 }, 1)).toBe(1);
    expect(topK({ rank: 1, tied: 4 }, 1)).toBe(0.25);
    expect(topK({ rank: 2, tied: 1 }, 1)).toBe(0);
    expect(topK(null, 1)).toBe(0);
  });

  it("counts a tie straddling rank 3 fractionally in top-3", () => {
    // ranks 2..5 tied: ranks 2 and 3 fall inside the first three, 2 of 4
    expect(topK({ rank: 2, tied: 4 }, 3)).toBe(0.5);
    expect(topK({ rank: 3, tied: 3 }, 3)).toBeCloseTo(1 / 3, 15);
    expect(topK({ rank: 1, tied: 3 }, 3)).toBe(1);
    expect(topK({ rank: 4, tied: 1 }, 3)).toBe(0);
  });

  it("averages 1/r over the ranks a tie spans for MRR", () => {
    expect(reciprocalRank({ rank: 1, tied: 1 })).toBe(1);
    expect(reciprocalRank({ rank: 2, tied: 2 })).toBeCloseTo((1 / 2 + 1 / 3) / 2, 15);
    expect(reciprocalRank({ rank: 1, tied: 4 })).toBeCloseTo((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4, 15);
    expect(reciprocalRank(null)).toBe(0);
  });

  it("finds the answer's rank and the size of its tie group", () => {
    const r = ranking([["x", 1], ["y", 2], ["z", 2], ["w", 4]], []);
    expect(placeOf(r.events, (e) => e.id === "z")).toEqual({ rank: 2, tied: 2 });
    expect(placeOf(r.events, (e) => e.id === "q")).toBeNull();
  });
});

describe("scores over traces", () => {
  it("gives the means with Wilson intervals and compares agents case-insensitively, trimmed", () => {
    const traces = [
      // step right at rank 1; agent " Coder " matches "coder"
      { ranking: ranking([["a", 1], ["b", 2]], [["coder", 1], ["planner", 2]]), decisive_event_id: "a", decisive_agent: " Coder " },
      // step tied 2-way at rank 1; agent second
      { ranking: ranking([["a", 1], ["b", 1], ["c", 3]], [["coder", 1], ["planner", 2]]), decisive_event_id: "b", decisive_agent: "PLANNER" },
      // step fourth; agent absent
      { ranking: ranking([["a", 1], ["b", 2], ["c", 3], ["d", 4]], [["coder", 1]]), decisive_event_id: "d", decisive_agent: "writer" },
    ];
    const s = scoreRankings(traces);
    expect(s.n).toBe(3);
    expect(s.step.top1.value).toBeCloseTo((1 + 0.5 + 0) / 3, 15);
    expect(s.step.top3.value).toBeCloseTo((1 + 1 + 0) / 3, 15);
    expect(s.step.mrr.value).toBeCloseTo((1 + (1 + 1 / 2) / 2 + 1 / 4) / 3, 15);
    expect(s.agent.top1.value).toBeCloseTo(1 / 3, 15);
    expect(s.agent.mrr.value).toBeCloseTo((1 + 1 / 2 + 0) / 3, 15);
    // Wilson with p = 0.5, n = 3: center (0.5 + z²/6) / (1 + z²/3) = 0.5, half = z·sqrt(1/12 + z²/36) / (1 + z²/3)
    const z = 1.959963984540054;
    const half = (z * Math.sqrt(0.25 / 3 + (z * z) / 36)) / (1 + (z * z) / 3);
    expect(s.step.top1.low).toBeCloseTo(0.5 - half, 12);
    expect(s.step.top1.high).toBeCloseTo(0.5 + half, 12);
  });
});
