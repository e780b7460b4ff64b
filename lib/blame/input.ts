/**
 * The one door into every attribution method: labels cannot pass it. An
 * importer may put the answer into the trace (Who&When's adapter writes it
 * to `metadata` and onto the decisive event as extra properties), so the
 * input keeps neither metadata nor any event's `extra`.
 */
import { prepareTrace, type PreparedTrace } from "../credit/prepare";
import type { Trace, TraceEvent } from "../trace/types";
import type { BlameInput } from "./types";

/** A copy of the trace without `metadata`, without any label the extended form carries, and without the events' extra properties. */
export function stripTrace(trace: Trace): Trace {
  // an adapter's output (what benchmarks read) may still carry the labels of the extended form beside the trace
  const { metadata: _metadata, decisive_errors: _d, decisive_error_adjudication: _a, annotations: _n, adjudications: _j, ...rest } = trace as Trace & Partial<Record<"decisive_errors" | "decisive_error_adjudication" | "annotations" | "adjudications", unknown>>;
  const events = trace.events.map((e) => {
    const { extra: _extra, ...known } = e;
    return known;
  });
  return { ...rest, events, edges: trace.edges.map((e) => ({ ...e })) };
}

/** The input of a method: the stripped trace and the stripped other rollouts of its group. */
export function blameInput(trace: Trace, group: readonly Trace[] = []): BlameInput {
  const others = group.filter((g) => g !== trace && g.trace_id !== trace.trace_id);
  return Object.freeze({ trace: stripTrace(trace), group: Object.freeze(others.map(stripTrace)) });
}

/** What several methods need of one input, computed once per input. */
export interface BlameContext {
  readonly prepared: PreparedTrace;
  /** Events in event order (SPEC.md section 1). */
  readonly ordered: readonly TraceEvent[];
  /** Array position of each event in event order. */
  readonly positions: Int32Array;
}

const contexts = new WeakMap<BlameInput, BlameContext>();

export function contextOf(input: BlameInput): BlameContext {
  let context = contexts.get(input);
  if (!context) {
    const prepared = prepareTrace(input.trace);
    const { order, events } = prepared.analysis.graph;
    context = { prepared, ordered: Array.from(order, (i) => events[i]!), positions: order };
    contexts.set(input, context);
  }
  return context;
}

/** Event ids in event order (what a guided search walks). */
export function orderedEventIds(input: BlameInput): string[] {
  return contextOf(input).ordered.map((e) => e.id);
}
