import { describe, expect, it } from "vitest";
import { codeFailureRun as run } from "./fixtures";
import { attributionReport, reportParts, runPart, type ReportHelpers, type ReportInput } from "./report";


describe("the attribution report of a project holding several systems", () => {
  // system A breaks at the failing code turn, the larger system B at the final answer; C has too few runs for a choice of its own
  const a = Array.from({ length: 12 }, (_, i) => run(i, "bad"));
  const b = Array.from({ length: 24 }, (_, i) => run(100 + i, "end"));
  const c = Array.from({ length: 4 }, (_, i) => run(200 + i, "bad"));
  const labelled = [...a, ...b, ...c];
  const systems = [...a.map(() => "A"), ...b.map(() => "B"), ...c.map(() => "C")];
  const input: ReportInput = { labelled, traceIds: labelled.map((t) => t.input.trace.trace_id), systems, judged: [] };
  const report = attributionReport(input);
  const system = (name: string) => report.by_system.find((s) => s.system === name)!;
  const step = (s: { methods: { method: string; scores: { step: { top1: { value: number } } } | null }[] }, method: string) => s.methods.find((m) => m.method === method)!.scores!.step.top1.value;

  it("each system with enough runs gets the best method on its own runs; a smaller one gets none (the overall best applies)", () => {
    expect(system("A").traces).toBe(12);
    const bestOnA = Math.max(...system("A").methods.flatMap((m) => (m.scores && m.not_applicable === 0 ? [m.scores.step.top1.value] : [])));
    expect(bestOnA).toBe(1);
    expect(step(system("A"), system("A").best!)).toBe(1);
    expect(step(system("B"), system("B").best!)).toBe(1);
    // the overall pick serves B, the larger system, and misses every run of A
    expect(step(system("A"), report.best!)).toBeLessThan(1);
    expect(system("C").best).toBeNull();
  }, 120_000);

  it("scores a system from the same cross-validated rankings as the whole (a learned method trained on every system's runs)", () => {
    for (const method of ["errors", "last_event", "learned_events"]) {
      const n = (s: string) => system(s).methods.find((m) => m.method === method)!.scores!.n;
      const overall = report.methods.find((m) => m.method === method)!.scores!;
      expect(n("A") + n("B") + n("C")).toBe(overall.n);
      const sum = ["A", "B", "C"].reduce((total, s) => total + step(system(s), method) * n(s), 0);
      expect(sum).toBeCloseTo(overall.step.top1.value * overall.n, 9);
    }
    // nested CV per system: the same rankings, split
    for (const [i, family] of report.nested.entries()) {
      const parts = ["A", "B", "C"].map((s) => system(s).nested[i]!);
      expect(parts.every((p) => p.family === family.family)).toBe(true);
      expect(parts.reduce((t, p) => t + p.scores.step.top1.value * p.scores.n, 0)).toBeCloseTo(family.scores.step.top1.value * family.scores.n, 9);
    }
  });

  it("leads with nested CV by task: here every run is of one task, too few tasks for it", () => {
    expect(report.estimate.tasks).toBe(1);
    expect(report.estimate.scores).toBeNull();
    expect(report.nested_by_task).toEqual([]);
    expect(report.estimate.by_system.map((s) => s.system)).toEqual(["A", "B", "C"]);
    expect(report.estimate.by_system.every((s) => s.scores === null)).toBe(true);
    // cross-system is still there: the pick trained on the other systems' runs
    expect(report.estimate.by_system.find((s) => s.system === "A")!.cross_system!.n).toBe(12);
  });

  it("the guided simulation takes each run's prior from its system's best method", () => {
    expect(report.guided.runs).toHaveLength(labelled.length);
    expect(report.guided.runs.every((r) => r.found)).toBe(true);
    expect(system("A").best).not.toBe(report.best);
    expect(report.guided.method).toContain(`A: ${system("A").best}`);
    expect(report.guided.method).toContain(`C: ${report.best}`);
  });

  it("computed in parts by another thread (here: a helper taking every other turn, on its own copy of the runs), the report is the same to the bit", () => {
    const elsewhere: number[] = [];
    let claims: Int32Array = new Int32Array(new SharedArrayBuffer(4));
    let copy: Pick<ReportInput, "labelled" | "systems"> = input;
    const helper: ReportHelpers = {
      start(started, shared) {
        claims = shared;
        // what a worker thread gets: a structured clone (other objects, so no training of this thread is reused)
        copy = structuredClone({ labelled: started.labelled, systems: started.systems });
      },
      receive() {
        const parts = reportParts(copy);
        const i = Atomics.add(claims, 0, 1);
        if (i >= parts.length) return [];
        elsewhere.push(i);
        return [[i, structuredClone(runPart(copy, parts[i]!))]];
      },
      stop() {},
    };
    const shares: number[] = [];
    const split = attributionReport(input, (share) => shares.push(share), helper);
    expect(elsewhere.length).toBeGreaterThan(1);
    expect(elsewhere.length).toBeLessThan(reportParts(input).length);
    expect(JSON.stringify(split)).toBe(JSON.stringify(report));
    expect(shares.at(-1)).toBe(1);
    expect(shares.every((s, i) => i === 0 || s >= shares[i - 1]!)).toBe(true);
  }, 120_000);
});
