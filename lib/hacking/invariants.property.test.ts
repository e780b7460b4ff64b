import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../metrics";
import { traceArb } from "../trace/arbitrary";
import { computeDiagnostics, TRACE_DETECTORS } from "./index";

/** Invariants of the detectors over generated traces (CI-sized: 60 runs). */
const RUNS = { numRuns: 60 };
const TIMEOUT = 60_000;

describe("hacking diagnostics, over generated traces", () => {
  it("every value is null or in [0, 1]; a flag needs its threshold; events are the trace's, in event order, without repeats", () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const d = computeDiagnostics(trace);
        const ids = trace.events.map((e) => e.id);
        for (const name of TRACE_DETECTORS) {
          const r = d.detectors[name];
          if (r.value !== null) expect(r.value >= 0 && r.value <= 1 + 1e-12).toBe(true);
          if (r.flagged) expect(r.value).not.toBeNull();
          if (r.flagged) expect(r.value!).toBeGreaterThanOrEqual(r.threshold);
          expect(new Set(r.events).size).toBe(r.events.length);
          for (const id of r.events) expect(ids).toContain(id);
          expect(d.flags.includes(name)).toBe(r.flagged);
        }
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("pseudo-parallelism is 1 - useful_agent_utilization, whatever the trace", () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const uau = computeMetrics(trace).e2.useful_agent_utilization;
        const v = computeDiagnostics(trace).detectors.pseudo_parallelism.value;
        if (uau === null) expect(v).toBeNull();
        else expect(v).toBeCloseTo(1 - uau, 12);
      }),
      RUNS,
    );
  }, TIMEOUT);

  it("does not depend on the order of the events array beyond ties (reversing keeps every value)", () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        // distinct times make event order independent of array position
        const timed = { ...trace, events: trace.events.map((e, i) => ({ ...e, t: i, t_end: undefined })) };
        const reversed = { ...timed, events: [...timed.events].reverse() };
        const a = computeDiagnostics(timed);
        const b = computeDiagnostics(reversed);
        for (const name of TRACE_DETECTORS) {
          const [x, y] = [a.detectors[name].value, b.detectors[name].value];
          if (x === null) expect(y).toBeNull();
          else expect(y!).toBeCloseTo(x, 9);
          expect(b.detectors[name].events).toEqual(a.detectors[name].events);
        }
      }),
      RUNS,
    );
  }, TIMEOUT);
});
