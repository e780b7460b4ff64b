import { describe, expect, it } from "vitest";
import { attributionReport, type ReportInput } from "@/lib/blame/report";
import { loadWhoAndWhen } from "@/scripts/lib/who-and-when";
import { attributionReportElsewhere, IN_PROCESS_BELOW } from "./report-process";

/** Timer ticks that fire while `work` runs: a busy event loop fires none. */
async function ticksDuring<T>(work: () => Promise<T>): Promise<{ value: T; ticks: number; ms: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const started = performance.now();
  try {
    const value = await work();
    return { value, ticks, ms: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

describe("the attribution report in a process of its own", () => {
  it("gives the same report as computing it here, while this process's timers keep firing", async () => {
    const labelled = (await loadWhoAndWhen("Algorithm-Generated")).slice(0, IN_PROCESS_BELOW);
    expect(labelled.length).toBeGreaterThanOrEqual(IN_PROCESS_BELOW);
    const input: ReportInput = {
      labelled,
      traceIds: labelled.map((t) => t.input.trace.trace_id),
      systems: labelled.map(() => "CaptainAgent"),
      judged: [],
    };
    const here = await ticksDuring(() => Promise.resolve(attributionReport(input)));
    // computed in this process, the loop fired nothing for the whole time
    expect(here.ticks).toBe(0);
    expect(here.ms).toBeGreaterThan(500);
    const elsewhere = await ticksDuring(() => attributionReportElsewhere(input));
    expect(elsewhere.value).toEqual(here.value);
    // the child computed it: the timers went on (at least a quarter of the ticks the time allows)
    expect(elsewhere.ticks).toBeGreaterThan(elsewhere.ms / 20 / 4);
    expect(elsewhere.value.nested.length).toBeGreaterThan(0);
  }, 180_000);

  it("a report the child cannot compute rejects with the child's reason, and a small one is computed here", async () => {
    const labelled = (await loadWhoAndWhen("Algorithm-Generated")).slice(0, IN_PROCESS_BELOW);
    // a decisive event that names nothing the traces hold still scores (a miss); a missing trace object throws in the child
    const broken = { labelled: labelled.map((t, i) => (i === 3 ? { ...t, input: { group: [] } as unknown as typeof t.input } : t)), traceIds: labelled.map(() => "x"), systems: labelled.map(() => null), judged: [] };
    await expect(attributionReportElsewhere(broken)).rejects.toThrow(/^attribution report: /);
    const small = labelled.slice(0, 10);
    const report = await ticksDuring(() => attributionReportElsewhere({ labelled: small, traceIds: small.map((t) => t.input.trace.trace_id), systems: small.map(() => null), judged: [] }));
    expect(report.ticks).toBe(0);
    expect(report.value.nested.length).toBeGreaterThan(0);
  }, 180_000);
});
