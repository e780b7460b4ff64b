import { describe, expect, it } from "vitest";
import { demoTraces } from "../demo";
import { METRIC_CATALOGUE, METRIC_KEYS, metricsOf, metricValue } from "./catalogue";
import { computeMetrics } from "./index";

describe("the metric catalogue", () => {
  const metrics = computeMetrics(demoTraces()[0]!);

  it("lists every E2-E4 value the metrics compute, each once, in its section", () => {
    for (const section of ["e2", "e3", "e4"] as const) expect(metricsOf(section).map((m) => m.key)).toEqual(Object.keys(metrics[section]));
    expect(new Set(METRIC_KEYS).size).toBe(METRIC_CATALOGUE.length);
  });

  it("reads each value where the metrics hold it", () => {
    expect(metricValue(metrics, "critical_steps")).toBe(metrics.e2.critical_steps);
    expect(metricValue(metrics, "dead_message_rate")).toBe(metrics.e3.dead_message_rate);
    expect(metricValue(metrics, "terminal_tainted")).toBe(metrics.e4.terminal_tainted);
  });

  it("words terminal_tainted as SPEC.md does", () => {
    expect(METRIC_CATALOGUE.find((m) => m.key === "terminal_tainted")?.label).toBe("terminal tainted");
  });
});
