import { describe, expect, it } from "vitest";
import { MAX_HEAD_SAMPLES, remember, stalenessMs, type HeadSample } from "./staleness";

describe("a standby's staleness in time", () => {
  const history: HeadSample[] = [];
  remember(history, { lsn: 100n, at: 1_000 });
  remember(history, { lsn: 100n, at: 2_000 }); // an idle primary: the head did not move
  remember(history, { lsn: 150n, at: 3_000 });
  remember(history, { lsn: 200n, at: 5_000 });

  it("is zero once the newest head seen is replayed, or for a server not in recovery", () => {
    expect(stalenessMs(history, 200n, 9_000)).toBe(0);
    expect(stalenessMs(history, 250n, 9_000)).toBe(0);
    expect(stalenessMs(history, null, 9_000)).toBe(0);
    expect(stalenessMs([], 10n, 9_000)).toBe(0);
  });

  it("counts from the first head the standby has not replayed: a replay stuck a few bytes behind grows stale by the clock", () => {
    expect(history.map((h) => h.lsn)).toEqual([100n, 150n, 200n]);
    expect(stalenessMs(history, 199n, 5_000)).toBe(0);
    expect(stalenessMs(history, 199n, 9_000)).toBe(4_000);
    expect(stalenessMs(history, 150n, 9_000)).toBe(4_000);
    expect(stalenessMs(history, 149n, 9_000)).toBe(6_000);
    // behind everything remembered: at least the time since the oldest head
    expect(stalenessMs(history, 10n, 9_000)).toBe(8_000);
  });

  it("keeps at most MAX_HEAD_SAMPLES samples, the newest", () => {
    const long: HeadSample[] = [];
    for (let i = 0; i < MAX_HEAD_SAMPLES + 10; i++) remember(long, { lsn: BigInt(i), at: i });
    expect(long).toHaveLength(MAX_HEAD_SAMPLES);
    expect(long[0]!.lsn).toBe(10n);
  });
});
