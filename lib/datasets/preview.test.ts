import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { previewOf, snapshotWarnings, type SelectionCounts } from "./preview";
import { DATASET_FORMS } from "./request";

/** 6 traces: a, b (grouped, 3 calls, 4 events each), c (no group, 3 calls, 4 events; a fork of a), d, e (no group, no calls, 8 events), g (grouped, no calls, 8 events). */
const SIX: SelectionCounts = { traces: 6, ungrouped: 3, grouped_without_calls: 1, without_calls: 3, calls: 9, grouped_calls: 6, events: 36, grouped_events: 16, replays: 1 };

describe("previewOf", () => {
  it("counts each form's rows and skipped traces as the build does", () => {
    expect(previewOf(SIX, "transitions", "ccp")).toEqual({ traces: 6, traces_kept: 3, rows: 9, row_unit: "model call", skipped: { without_calls: 3, no_group: 0 }, replays: 1 });
    expect(previewOf(SIX, "transitions", "gigpo")).toEqual({ traces: 6, traces_kept: 2, rows: 6, row_unit: "model call", skipped: { without_calls: 1, no_group: 3 }, replays: 1 });
    expect(previewOf(SIX, "rows", "grpo")).toEqual({ traces: 6, traces_kept: 3, rows: 16, row_unit: "event", skipped: { without_calls: 0, no_group: 3 }, replays: 1 });
    expect(previewOf(SIX, "rows", "mc_return")).toMatchObject({ traces_kept: 6, rows: 36 });
    expect(previewOf(SIX, "extended", "gigpo")).toEqual({ traces: 6, traces_kept: 6, rows: 6, row_unit: "trace", skipped: { without_calls: 0, no_group: 0 }, replays: 1 });
    // the trainers' forms: verl, verl_agent and skyrl one row per call, rLLM and Agent Lightning one per trace with calls
    expect(previewOf(SIX, "verl", "ccp")).toEqual(previewOf(SIX, "transitions", "ccp"));
    expect(previewOf(SIX, "skyrl", "gigpo")).toEqual(previewOf(SIX, "transitions", "gigpo"));
    expect(previewOf(SIX, "rllm", "ccp")).toEqual({ traces: 6, traces_kept: 3, rows: 3, row_unit: "trace", skipped: { without_calls: 3, no_group: 0 }, replays: 1 });
    expect(previewOf(SIX, "agent_lightning", "grpo")).toEqual({ traces: 6, traces_kept: 2, rows: 2, row_unit: "trace", skipped: { without_calls: 1, no_group: 3 }, replays: 1 });
  });

  it("kept and skipped traces add up to the traces selected, whatever the counts", () => {
    const counts = fc
      .record({ grouped: fc.nat(1000), ungrouped: fc.nat(1000), gwc: fc.nat(1000), uwc: fc.nat(1000), gc: fc.nat(1e6), uc: fc.nat(1e6), ge: fc.nat(1e6), ue: fc.nat(1e6) })
      .map(({ grouped, ungrouped, gwc, uwc, gc, uc, ge, ue }): SelectionCounts => ({
        traces: grouped + ungrouped,
        ungrouped,
        grouped_without_calls: Math.min(gwc, grouped),
        without_calls: Math.min(gwc, grouped) + Math.min(uwc, ungrouped),
        calls: gc + uc,
        grouped_calls: gc,
        events: ge + ue,
        grouped_events: ge,
        replays: 0,
      }));
    fc.assert(
      fc.property(counts, fc.constantFrom(...DATASET_FORMS), fc.constantFrom("ccp", "grpo", "gigpo", "uniform"), (c, form, method) => {
        const p = previewOf(c, form, method);
        expect(p.traces_kept + p.skipped.without_calls + p.skipped.no_group).toBe(c.traces);
        expect(p.traces_kept).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe("snapshotWarnings", () => {
  it("says why a snapshot is empty or short, with the counts", () => {
    expect(snapshotWarnings({ rows: 9, traces: 3, without_calls: 0, no_group: 0 }, "transitions", "ccp")).toEqual([]);
    expect(snapshotWarnings({ rows: 9, traces: 3, without_calls: 0, no_group: 0, replays: 2 }, "transitions", "ccp")).toEqual([
      '2 matching traces are replays or forks of an intervention: a fork\'s changed call holds the edit, not the model\'s reply. Replays: "leave out replays and forks" to keep them out of a training set.',
    ]);
    expect(snapshotWarnings({ rows: 0, traces: 0, without_calls: 0, no_group: 0 }, "transitions", "ccp")[0]).toContain("matches no traces");
    expect(snapshotWarnings({ rows: 0, traces: 0, without_calls: 0, no_group: 0 }, "rows", "ccp", true)).toEqual(["The filter matched no traces (in the projects this snapshot may hold): the snapshot is empty."]);
    expect(snapshotWarnings({ rows: 3, traces: 2, without_calls: 1, no_group: 0 }, "transitions", "ccp")[0]).toMatch(/^1 trace would be skipped: /);
    const w = snapshotWarnings({ rows: 0, traces: 7, without_calls: 1, no_group: 6 }, "transitions", "gigpo", true);
    expect(w).toEqual([
      "The snapshot holds 0 rows from 7 matching traces.",
      "6 traces skipped: gigpo compares each trace with its group, and these have no group_id or no other trace in it. Choose another method (ccp, say) to keep them.",
      "1 trace skipped: the transitions form is made of model calls, and this trace has none. Choose the rows form (one row per event) to keep them.",
    ]);
  });
});
