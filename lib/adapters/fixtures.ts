import { readdirSync } from "node:fs";
import { expect } from "vitest";
import { validateTrace } from "../trace/validate";
import { adapt, type AdaptInput, type SourceFormat } from "./index";
import type { AdaptedTrace } from "./types";

/**
 * Test helpers over the real datasets in shared/data (read in place, never
 * copied into the repository; paths are relative to the repository root,
 * the working directory of the tests).
 */
export const DATA = "../shared/data";

export const data = (relative: string) => `${DATA}/${relative}`;

export async function collect(format: SourceFormat, input: AdaptInput): Promise<AdaptedTrace[]> {
  const traces: AdaptedTrace[] = [];
  for await (const trace of adapt(format, input)) traces.push(trace);
  return traces;
}

/** Files of a dataset folder, in numeric order where names are numbers. */
export function filesIn(relative: string): string[] {
  return readdirSync(data(relative))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b))
    .map((name) => data(`${relative}/${name}`));
}

export function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

export const eventTypes = (trace: AdaptedTrace) => countBy(trace.events, (e) => e.type);
export const edgeTypes = (trace: AdaptedTrace) => countBy(trace.edges, (e) => e.type);

/** Asserts that validateTrace accepts the trace with no problems; returns its warnings. */
export function expectValid(trace: AdaptedTrace): string[] {
  const result = validateTrace(trace);
  expect(result.ok ? [] : result.problems, trace.trace_id).toEqual([]);
  return result.ok ? result.warnings.map((w) => `${w.path}: ${w.message}`) : [];
}
